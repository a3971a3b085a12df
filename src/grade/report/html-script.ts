// The html report's one script, inlined and allowed by its hash in the page's Content-Security-Policy
// (html-page.ts). It only adds: sorting a table by a column, and filtering the submissions by name, verdict and
// mistake. Everything it works on is already on the page as plain HTML, so the page reads the same with scripts
// off; the controls it uses are `hidden` until it shows them. It reads what the page holds as text (`dataset`,
// `textContent`) and never writes HTML: nothing a submission wrote can become markup through it.
//
// Plain ES2020 in a string: it runs in the browser, not in Node, and this project compiles for Node only.
export const SCRIPT = `
(() => {
  'use strict';
  const text = (cell) => (cell ? cell.dataset.sort ?? cell.textContent ?? '' : '');
  const collator = new Intl.Collator();
  for (const table of document.querySelectorAll('table[data-sortable]')) {
    const body = table.tBodies[0];
    const heads = Array.from(table.tHead.rows[0].cells);
    heads.forEach((head, column) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = head.textContent;
      head.textContent = '';
      head.append(button);
      button.addEventListener('click', () => {
        const ascending = head.getAttribute('aria-sort') !== 'ascending';
        for (const other of heads) other.removeAttribute('aria-sort');
        head.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
        const numeric = head.dataset.type === 'number';
        // Each row's key read once, not twice per comparison: a class of hundreds sorts at once.
        const keyed = Array.from(body.rows, (row) => ({ row, key: text(row.cells[column]) }));
        keyed.sort((a, b) => {
          const order = numeric ? Number(a.key) - Number(b.key) : collator.compare(a.key, b.key);
          return ascending ? order : -order;
        });
        body.append(...keyed.map((k) => k.row));
      });
    });
  }

  const table = document.getElementById('submissions');
  const controls = document.getElementById('filters');
  if (!table || !controls) return;
  const rows = Array.from(table.tBodies[0].rows);
  const byName = document.getElementById('filter-name');
  const byVerdict = document.getElementById('filter-verdict');
  const byMistake = document.getElementById('filter-mistake');
  const shown = document.getElementById('filter-count');
  const apply = () => {
    const name = byName.value.trim().toLowerCase();
    let count = 0;
    for (const row of rows) {
      const keep =
        (name === '' || (row.dataset.name ?? '').toLowerCase().includes(name)) &&
        (byVerdict.value === '' || row.dataset.verdict === byVerdict.value) &&
        (byMistake.value === '' || (row.dataset.mistakes ?? '').split(' ').includes(byMistake.value));
      row.hidden = !keep;
      if (keep) count += 1;
    }
    shown.textContent = 'Showing ' + count + ' of ' + rows.length + ' submissions';
  };
  for (const control of [byName, byVerdict, byMistake]) control.addEventListener('input', apply);
  for (const button of document.querySelectorAll('button[data-mistake]')) {
    button.hidden = false;
    button.addEventListener('click', () => {
      byMistake.value = button.dataset.mistake;
      byName.value = '';
      byVerdict.value = '';
      apply();
      table.scrollIntoView();
    });
  }
  controls.hidden = false;
  apply();
})();
`;
