#!/usr/bin/env python3
"""Usage: make-checkouts.py FIXTURE

Writes hand-made .build/checkouts (manifests only) and, where missing, a
Package.resolved for every package of a trimmed tree with remote
dependencies: each checkout vends the products the tree uses plus the
modules it imports from that package (one target per product)."""
import atexit, json, os, re, shutil, subprocess, sys, tempfile
# SwiftPM's scratch folder and its temporary files (TMPDIR: it also puts
# lock files there) in one folder of this run, removed at the end.
scratch = tempfile.mkdtemp(prefix='arch-check-dump-')
atexit.register(shutil.rmtree, scratch, True)
os.makedirs(scratch + '/tmp')
environment = dict(os.environ, TMPDIR=scratch + '/tmp')
root = sys.argv[1]
# Modules imported without a product of that name, by the package that has them.
extra = {
    'BasicContainers': 'swift-collections', 'CoreMetrics': 'swift-metrics', 'HTTPAPIs': 'swift-http-server',
    'NIOEmbedded': 'swift-nio', 'NIOPosix': 'swift-nio', 'NIOHTTPTypesHTTP1': 'swift-nio-extras',
    'UnixSignals': 'swift-service-lifecycle', 'SwiftDiagnostics': 'swift-syntax', 'SwiftOperators': 'swift-syntax',
    'SwiftSyntaxMacroExpansion': 'swift-syntax', 'SwiftSyntaxMacrosTestSupport': 'swift-syntax',
    'SwiftSyntax': 'swift-syntax', 'SwiftSyntaxBuilder': 'swift-syntax', 'SwiftSyntaxMacros': 'swift-syntax',
    'CombineSchedulers': 'combine-schedulers', 'CustomDump': 'swift-custom-dump', 'Dependencies': 'swift-dependencies',
}
imp = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|open)\s+)?import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z_0-9]*)')
for directory, dirs, names in os.walk(root):
    dirs[:] = [d for d in dirs if not d.startswith('.')]
    if 'Package.swift' not in names: continue
    dump = json.loads(subprocess.run(['swift', 'package', '--scratch-path', scratch + '/build', 'dump-package', '--package-path', directory], capture_output=True, text=True, check=True, env=environment).stdout)
    remotes = {}
    for dep in dump['dependencies']:
        kind, value = next(iter(dep.items()))
        if kind != 'sourceControl': continue
        url = value[0]['location']['remote'][0]['urlString']
        remotes[value[0]['identity']] = url
    if not remotes: continue
    products = {identity: set() for identity in remotes}
    for target in dump['targets']:
        for d in target['dependencies']:
            if 'product' in d:
                name, package = d['product'][0], (d['product'][1] or '').lower()
                if package in products: products[package].add(name)
    used = set().union(*products.values())
    local = {t['name'] for t in dump['targets']}
    for dp, _, fs in os.walk(directory):
        if '/.' in dp[len(directory):]: continue
        for f in fs:
            if not f.endswith('.swift'): continue
            for line in open(os.path.join(dp, f), encoding='utf-8', errors='replace'):
                m = imp.match(line.lstrip('\ufeff'))
                if m and m.group(1) not in used and m.group(1) not in local and extra.get(m.group(1)) in products:
                    products[extra[m.group(1)]].add(m.group(1))
    folders = {}
    for identity, url in remotes.items():
        folder = url.rstrip('/').split('/')[-1]
        folder = folder[:-4] if folder.endswith('.git') else folder
        folders[identity] = folder
        path = os.path.join(directory, '.build', 'checkouts', folder)
        os.makedirs(path, exist_ok=True)
        names = sorted(products[identity])
        with open(os.path.join(path, 'Package.swift'), 'w') as out:
            out.write('// swift-tools-version:5.9\n')
            out.write(f'// Hand-made stand-in for {url}: only the products this fixture uses.\n')
            out.write('import PackageDescription\n\nlet package = Package(\n')
            out.write(f'    name: "{folder}",\n    products: [\n')
            for n in names: out.write(f'        .library(name: "{n}", targets: ["{n}"]),\n')
            out.write('    ],\n    targets: [\n')
            for n in names: out.write(f'        .target(name: "{n}"),\n')
            out.write('    ]\n)\n')
    resolved = os.path.join(directory, 'Package.resolved')
    if not os.path.exists(resolved):
        pins = [{'identity': i, 'kind': 'remoteSourceControl', 'location': remotes[i], 'state': {'revision': '0' * 40}} for i in sorted(remotes)]
        with open(resolved, 'w') as out:
            json.dump({'pins': pins, 'version': 3}, out, indent=2); out.write('\n')
    print(directory, len(remotes), 'remote dependencies,', sum(len(v) for v in products.values()), 'products')
