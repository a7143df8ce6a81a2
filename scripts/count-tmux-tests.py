#!/usr/bin/env python3
"""Counts the tests that use tmux (issue 36: at most 40).

A test is a tmux test when its body creates a TmuxSession (`TmuxSession(`) or calls a function of its own
test target (a folder of Tests/) that does, directly or through others (`hosted()`, `coReading.join(...)`). Each @Test function counts once, whatever its arguments; the
count of its argument cases is printed beside it. Usage: scripts/count-tmux-tests.py [-v] [Tests]
"""
import pathlib, re, sys

def strip(text):
    """The text with comments and string literals blanked (so braces in them do not count)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith('//', i):
            j = text.find('\n', i); j = n if j < 0 else j
            out.append(' ' * (j - i)); i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2); j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j])); i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3); j = n if j < 0 else j + 3
            out.append('"' + re.sub(r'[^\n]', ' ', text[i + 1:j - 1]) + '"'); i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            out.append('"' + ' ' * (j - i - 2) + '"'); i = j
        else:
            out.append(text[i]); i += 1
    return ''.join(out)

FUNC = re.compile(r'\bfunc\s+([A-Za-z_][A-Za-z0-9_]*)')

def functions(code):
    """(name, start, body) for each func with a body."""
    found = []
    for m in FUNC.finditer(code):
        brace = code.find('{', m.end())
        if brace < 0: continue
        depth, j = 0, brace
        while j < len(code):
            if code[j] == '{': depth += 1
            elif code[j] == '}':
                depth -= 1
                if depth == 0: break
            j += 1
        found.append((m.group(1), m.start(), code[brace:j + 1]))
    return found

def calls(body, name):
    return re.search(r'(?<!\w)' + re.escape(name) + r'\s*\(', body) is not None

def main():
    args = [a for a in sys.argv[1:] if a != '-v']
    verbose = '-v' in sys.argv
    root = pathlib.Path(args[0] if args else 'Tests')
    tests = []
    for target in sorted(p for p in root.iterdir() if p.is_dir()):
        files = [(path, strip(path.read_text())) for path in sorted(target.rglob('*.swift'))]
        funcs = [(path, code, name, start, body) for path, code in files for name, start, body in functions(code)]
        tmux = {name for _, _, name, _, body in funcs if 'TmuxSession(' in body}
        changed = True
        while changed:
            changed = False
            for _, _, name, _, body in funcs:
                if name not in tmux and any(calls(body, h) for h in tmux):
                    tmux.add(name); changed = True
        for path, code, name, start, body in funcs:
            before = code[max(0, start - 300):start]
            attr = before[before.rfind('@Test'):] if '@Test' in before else ''
            if not attr or re.search(r'\bfunc\b', attr): continue
            if 'TmuxSession(' in body or any(calls(body, h) for h in tmux if h != name):
                tests.append((path, name))
    for path, name in tests:
        if verbose: print(f'{path.stem}.{name}')
    print(len(tests))

main()
