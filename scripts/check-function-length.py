#!/usr/bin/env python3
"""No function longer than a limit (80 lines, signature to closing brace) in the given folders
(issue 42: src/run, src/sched, src/store, src/cli). A function is a top-level definition of the
clang-formatted sources: a declaration at column 0 whose first brace follows a parenthesis, up to
the brace that closes it (strings, characters, raw strings and comments skipped). Functions
defined inside a class body are measured too. Exit 1 with a line per function over the limit."""
import re
import sys
from pathlib import Path

LIMIT = 80


def code_chars(text):
    """(index, char) of the text outside comments and literals, with newlines kept."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        m = re.match(r'(?:u8|u|U|L)?R"([^(\s]*)\(', text[i:i + 40])
        if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = text.find(")" + m.group(1) + '"', i + m.end())
            i = n if end < 0 else end + len(m.group(1)) + 2
            continue
        if c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator: 1'000
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        yield i, c
        i += 1


def functions(text):
    """(first line, last line, head) of each function definition."""
    line_of = []
    line = 1
    for ch in text:
        line_of.append(line)
        line += ch == "\n"
    stack = []  # one entry per open brace: (is a function's body, where its head began)
    head = None  # where the current declaration's code began (comments before it not counted)
    for i, c in code_chars(text):
        if c == "{":
            start = head if head is not None else i
            words = text[start:i]
            body = ("(" in words and not re.search(r"\b(namespace|struct|class|enum|union)\b[^(]*$", words)
                    and not re.search(r"=\s*$", words) and not any(fn for fn, _ in stack))
            stack.append((body, start))
            head = None
        elif c == "}":
            if stack:
                body, start = stack.pop()
                if body:
                    yield line_of[start], line_of[i], " ".join(text[start:i].split())[:90]
            head = None
        elif c == ";":
            head = None
        elif head is None and not c.isspace():
            head = i


def main(argv):
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent
    folders = argv[2:] or ["src/run", "src/sched", "src/store", "src/cli"]
    status = 0
    for folder in folders:
        for f in sorted((root / folder).glob("*.cpp")):
            for first, last, head in functions(f.read_text(errors="replace")):
                if last - first + 1 > LIMIT:
                    print(f"{f.relative_to(root)}:{first}: {last - first + 1} lines (over "
                          f"{LIMIT}): {head[:90]}")
                    status = 1
    if status == 0:
        print(f"function length: none over {LIMIT} lines in {', '.join(folders)}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
