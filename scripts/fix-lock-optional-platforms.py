# Adds lock entries for optional platform packages the npm registry mirror here does not serve (404),
# so that `npm ci` accepts the lock (npm writes locks without them on this machine, then rejects them).
import json, re, sys
p = sys.argv[1] if len(sys.argv) > 1 else 'package-lock.json'
lock = json.load(open(p))
pk = lock['packages']
OS = {'darwin': 'darwin', 'win32': 'win32', 'linux': 'linux', 'android': 'android', 'freebsd': 'freebsd', 'openharmony': 'openharmony'}
added = 0
for path, e in list(pk.items()):
    for name, ver in (e.get('optionalDependencies') or {}).items():
        if f'node_modules/{name}' in pk or f'{path}/node_modules/{name}' in pk:
            continue
        m = re.search(r'-(darwin|win32|linux|android|freebsd|openharmony)-([a-z0-9]+)(?:-(gnu|musl|gnueabihf|musleabihf|msvc|eabi))?$', name)
        if not m or not re.fullmatch(r'\d+\.\d+\.\d+', ver):
            print('skip', name, ver); continue
        os_, cpu, abi = m.groups()
        cpu = {'arm': 'arm'}.get(cpu, cpu)
        if (abi or '').startswith('gnueabihf') or (abi or '').startswith('musleabihf') or abi == 'eabi': cpu = 'arm'
        libc = ['glibc'] if abi and abi.startswith('gnu') else ['musl'] if abi and abi.startswith('musl') else None
        entry = {'version': ver, 'cpu': [cpu], 'dev': e.get('dev', False) or None, 'libc': libc, 'optional': True, 'os': [OS[os_]]}
        entry = {k: v for k, v in entry.items() if v is not None}
        pk[f'node_modules/{name}'] = entry
        added += 1
lock['packages'] = dict(sorted(pk.items(), key=lambda kv: (kv[0] != '', kv[0])))
json.dump(lock, open(p, 'w'), indent=2, ensure_ascii=False)
open(p, 'a').write('\n')
print('added', added)
