// The machine a benchmark ran on, in one line: numbers mean little without it.
import { cpus, release, totalmem } from 'node:os';

// "2 × Intel(R) Xeon(R) …, 7.8 GB RAM, Linux 6.1.0, Node v20.20.2"
export function describeMachine(): string {
  const cores = cpus();
  const model = cores[0]?.model.trim() ?? 'unknown CPU';
  const gb = (totalmem() / 1024 ** 3).toFixed(1);
  return `${cores.length} × ${model}, ${gb} GB RAM, ${process.platform} ${release()}, Node ${process.version}`;
}
