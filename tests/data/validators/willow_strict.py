#!/usr/bin/env python3
# A setter's strict input validator of willow in the Kattis convention (exit 42 valid, 43 not;
# the reason on stderr), as a test fixture of `gamebatch validate`: it takes a group's limits as
# --T/--N/--C MIN..MAX. FORGET makes it forget one rule on purpose (the tests write copies with
# "group": it ignores the group's flags; "order": it accepts j_i <= i).
import re
import sys

FORGET = ""

LIMITS = {"T": (1, 50), "N": (2, 4000), "C": (0, 10000)}
INTEGER = re.compile(rb"0|-?[1-9][0-9]*")


def reject(line, message):
    sys.stderr.write("line %d: %s\n" % (line, message))
    sys.exit(43)


def main():
    arguments = sys.argv[1:]
    for k in range(0, len(arguments) - 1, 2):
        name, value = arguments[k].lstrip("-"), arguments[k + 1]
        low, _, high = value.partition("..")
        if name in LIMITS and FORGET != "group":
            LIMITS[name] = (max(LIMITS[name][0], int(low)), min(LIMITS[name][1], int(high or low)))
    data = sys.stdin.buffer.read()
    if not data.endswith(b"\n"):
        reject(0, "no final newline")
    lines = data[:-1].split(b"\n")
    at = [0]

    def number(name):
        if at[0] >= len(lines):
            reject(at[0] + 1, "missing line: %s" % name)
        text = lines[at[0]]
        at[0] += 1
        if not INTEGER.fullmatch(text):
            reject(at[0], "%s: not one integer: %r" % (name, text))
        return int(text)

    def bounded(name, parameter):
        value = number(name)
        low, high = LIMITS[parameter]
        if not low <= value <= high:
            reject(at[0], "%s = %d outside %d..%d" % (name, value, low, high))
        return value

    for _ in range(bounded("T", "T")):
        n = bounded("N", "N")
        for _ in range(n):
            bounded("C_i", "C")
        for i in range(1, n):
            j = number("j_i")
            low = 1 if FORGET == "order" else i + 1
            if not low <= j <= n:
                reject(at[0], "j_%d = %d outside %d..%d" % (i, j, i + 1, n))
    if at[0] != len(lines):
        reject(at[0] + 1, "extra lines")
    sys.exit(42)


main()
