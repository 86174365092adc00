#!/usr/bin/env python3
"""Usage: trim-repository.py REPOSITORY FIXTURE

Copies a repository as a trimmed fixture: manifests, Package.resolved and
module maps verbatim; every other .swift file reduced to its import and #if
lines (so positions change but imports and conditions stay)."""
import os, re, sys, shutil
from swift_lines import code_lines
src, dst = sys.argv[1], sys.argv[2]
keep = re.compile(r'^\ufeff?\s*((@\w+(\([^)]*\))?\s+)*((public|package|internal|private|fileprivate|open)\s+)?import\s|#(if|elseif|else|endif)\b)')
manifest = re.compile(r'^Package(@swift-[\d.]+)?\.swift$')
files = 0
for root, dirs, names in os.walk(src):
    dirs[:] = [d for d in dirs if d not in ('.git', '.build', '.swiftpm')]
    rel = os.path.relpath(root, src)
    out = os.path.join(dst, rel)
    for d in list(dirs):
        p = os.path.join(root, d)
        if os.path.islink(p):
            os.makedirs(out, exist_ok=True)
            os.symlink(os.readlink(p), os.path.join(out, d))
            dirs.remove(d)
    for name in names:
        p = os.path.join(root, name)
        if manifest.match(name) or name in ('Package.resolved', 'module.modulemap'):
            os.makedirs(out, exist_ok=True); shutil.copyfile(p, os.path.join(out, name)); files += 1
        elif name.endswith('.swift'):
            os.makedirs(out, exist_ok=True)
            text = open(p, encoding='utf-8', errors='replace').read().split('\n')
            lines = [l for _, l in code_lines(text) if keep.match(l)]
            with open(os.path.join(out, name), 'w') as f:
                f.write(''.join(l + '\n' for l in lines))
            files += 1
print(files, 'files')
