#!/usr/bin/env python3
"""The docs' links hold: docs/lab's index lists every record (in date order, each row dated as its file), every relative link in the Markdown docs resolves, and every docs/lab path named in code or docs exists. Run from the repository root (CI does)."""
import re, pathlib, sys
root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else '.').resolve()
lab = root / 'docs/lab'
bad = 0
# 1. index lists every record, and nothing that is not there
idx = (lab / 'README.md').read_text()
listed = re.findall(r'^\| \d{4}-\d{2}-\d{2} \| \[[^\]]*\]\(([^)]+)\)', idx, re.M)
files = sorted(p.name for p in lab.glob('*.md') if p.name != 'README.md')
for f in files:
    if f not in listed: print(f'NOT IN INDEX: docs/lab/{f}'); bad += 1
for f in listed:
    if f not in files: print(f'INDEX ROW WITHOUT FILE: {f}'); bad += 1
if len(listed) != len(set(listed)): print('DUPLICATE INDEX ROWS'); bad += 1
dates = re.findall(r'^\| (\d{4}-\d{2}-\d{2}) \|', idx, re.M)
if dates != sorted(dates): print('INDEX NOT IN DATE ORDER'); bad += 1
for row_date, f in zip(dates, listed):
    if not f.startswith(row_date): print(f'ROW DATE {row_date} != FILE {f}'); bad += 1
print(f'index: {len(listed)} rows, {len(files)} record files')
# 2. relative links in markdown
mds = list(lab.glob('*.md')) + [root / 'README.md'] + list((root / 'docs').glob('*.md')) \
    + [p for p in (root / 'crates').rglob('README.md') if 'target' not in p.parts]
nlinks = 0
for md in mds:
    text = md.read_text()
    for m in re.finditer(r'\]\(([^)\s]+)\)', text):
        url = m.group(1)
        if re.match(r'[a-z]+:', url) or url.startswith('#'): continue
        nlinks += 1
        target = (md.parent / url.split('#')[0]).resolve()
        if not target.exists():
            print(f'BROKEN LINK: {md.relative_to(root)}: {url}'); bad += 1
print(f'markdown: {len(mds)} files, {nlinks} relative links checked')
# 3. docs/lab paths named anywhere in .rs files (and .md files)
npaths = 0
for p in list((root / 'crates').rglob('*.rs')) + [q for q in root.rglob('*.md') if 'target' not in q.parts]:
    if 'target' in p.parts: continue
    for m in re.finditer(r'docs/lab/[\w.\-]+\.md', p.read_text()):
        npaths += 1
        if not (root / m.group(0)).exists():
            print(f'MISSING LAB PATH: {p.relative_to(root)}: {m.group(0)}'); bad += 1
print(f'docs/lab paths named in .rs/.md: {npaths} checked')
print('OK' if bad == 0 else f'{bad} problem(s)')
sys.exit(1 if bad else 0)
