"""Lines of Swift source that begin in code: not inside a block comment
(nested) or a multi-line string. Enough to tell an `import` line that the
compiler reads from text inside a literal or comment, for the scripts
beside this file; a line-oriented approximation, not a Swift lexer."""


def code_lines(lines):
    """Yields (number, line) for each line (1-based) that begins in code."""
    in_string = False
    depth = 0
    for number, line in enumerate(lines, 1):
        if not in_string and depth == 0:
            yield number, line
        i = 0
        while i < len(line):
            if in_string:
                if line.startswith('"""', i):
                    in_string = False
                    i += 3
                    continue
            elif depth:
                if line.startswith('*/', i):
                    depth -= 1
                    i += 2
                    continue
                if line.startswith('/*', i):
                    depth += 1
                    i += 2
                    continue
            else:
                if line.startswith('//', i):
                    break
                if line.startswith('/*', i):
                    depth += 1
                    i += 2
                    continue
                if line.startswith('"""', i):
                    in_string = True
                    i += 3
                    continue
                if line[i] == '"':
                    # A one-line string: skip to its closing quote.
                    j = line.find('"', i + 1)
                    while j > 0 and line[j - 1] == '\\':
                        j = line.find('"', j + 1)
                    i = (j + 1) if j > 0 else len(line)
                    continue
            i += 1
