#!/usr/bin/env python3
"""Usage: independent-scan.py TREE TOOLCHAIN-MODULES-FILE

Independent check of arch-check's explicit-imports findings: reads each
manifest with dump-package, walks the files SwiftPM compiles, finds imports
with a regular expression (skipping comments and multi-line strings), and
lists every import of a module that is neither the target's own, nor a
direct dependency's, nor the toolchain's. Prints the set as JSON lines."""
import atexit, json, os, re, shutil, subprocess, sys, tempfile
from swift_lines import code_lines
# SwiftPM's scratch folder and its temporary files (TMPDIR: it also puts
# lock files there) in one folder of this run, removed at the end.
scratch = tempfile.mkdtemp(prefix='arch-check-dump-')
atexit.register(shutil.rmtree, scratch, True)
os.makedirs(scratch + '/tmp')
environment = dict(os.environ, TMPDIR=scratch + '/tmp')
root = os.path.realpath(sys.argv[1])
# The toolchain and platform modules: one name a line (the test run writes
# them from ModuleName.toolchainModules; every module of the Linux
# toolchain's usr/lib/swift/linux is in that list).
toolchain = set(l.strip() for l in open(sys.argv[2]))
imp = re.compile(r'^\ufeff?\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|open)\s+)?import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z_0-9]*)')
def dump(d):
    return json.loads(subprocess.run(['swift', 'package', '--scratch-path', scratch + '/build', 'dump-package', '--package-path', d], capture_output=True, text=True, check=True, env=environment).stdout)
def c99(n): return re.sub(r'[^A-Za-z0-9_]', '_', n)
packages = {}
for d, dirs, names in os.walk(root):
    dirs[:] = [x for x in dirs if not x.startswith('.') and x != 'checkouts']
    if 'Package.swift' in names: packages[d] = dump(d)
findings = set()
for d, m in packages.items():
    checkouts = {}
    for dep in m['dependencies']:
        kind, v = next(iter(dep.items()))
        if kind == 'sourceControl':
            url = v[0]['location']['remote'][0]['urlString'].rstrip('/')
            folder = url.split('/')[-1]; folder = folder[:-4] if folder.endswith('.git') else folder
            p = os.path.join(d, '.build/checkouts', folder)
            if os.path.exists(p + '/Package.swift'): checkouts[v[0]['identity']] = dump(p)
        elif kind == 'fileSystem':
            p = os.path.realpath(v[0]['path'])
            checkouts[v[0]['identity']] = packages.get(p) or dump(p)
    local = {t['name'] for t in m['targets']}
    for t in m['targets']:
        if t['type'] in ('system', 'binary'): continue
        direct = set()
        for dep in t['dependencies']:
            k, v = next(iter(dep.items()))
            name = v[0]
            if k == 'target' or (k == 'byName' and name in local): direct.add(c99(name)); continue
            pkg = (v[1] or '').lower() if k == 'product' else None
            for ident, cm in checkouts.items():
                if pkg and ident != pkg and cm['name'].lower() != pkg: continue
                for p in cm['products']:
                    if p['name'] == name: direct |= {c99(x) for x in p['targets']}
        parent = {'test': 'Tests', 'plugin': 'Plugins'}.get(t['type'], 'Sources')
        tdir = os.path.join(d, t.get('path') or f'{parent}/{t["name"]}')
        if not os.path.isdir(tdir) and t['type'] == 'test' and os.path.isdir(os.path.join(d, 'Sources', t['name'])): tdir = os.path.join(d, 'Sources', t['name'])
        skip = [os.path.normpath(os.path.join(tdir, x)) for x in t.get('exclude', [])] + [os.path.normpath(os.path.join(tdir, r['path'])) for r in t.get('resources', [])]
        for w, wd, wf in os.walk(tdir, followlinks=True):
            wd[:] = [x for x in wd if not x.startswith('.') and not x.endswith('.docc') and os.path.normpath(os.path.join(w, x)) not in skip]
            for f in wf:
                fp = os.path.normpath(os.path.join(w, f))
                if not f.endswith('.swift') or fp in skip or any(fp.startswith(s + '/') for s in skip): continue
                if f == 'Package.swift' or f.startswith('Package@swift'): continue
                with open(fp, encoding='utf-8', errors='replace') as source:
                    for no, line in code_lines(source.read().split('\n')):
                        mm = imp.match(line)
                        if mm:
                            mod = mm.group(1)
                            if mod not in toolchain and mod != c99(t['name']) and mod not in direct:
                                findings.add((os.path.relpath(fp, root), no, mod))
for f in sorted(findings): print(json.dumps(f))
