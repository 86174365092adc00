#!/usr/bin/env python3
"""Writes report.md and memory.svg from the outputs benchmarks/run captured.

    python3 benchmarks/report/report.py DIR

DIR holds machine.env (key=value lines) and, per benchmark NAME that ran,
NAME.txt (its stdout), NAME.stderr, NAME.status ("exit N, S s" or "build
failed") and NAME.command. Each benchmark's lines are matched against the
formats its Swift source prints (see benchmarks/README.md); a line no
pattern knows is still in the raw output at the end of its section, so a
changed format loses a table row, never a figure.

Every line of the form

    GOAL <id> value=<number><unit> <op> <target><unit> PASS|FAIL -- <explanation>

in any NAME.txt (known benchmark or not) becomes a row of the "Goals" table
at the top of report.md; `goals: N passed, M failed` is printed on stdout
and written under the table.

Python 3 standard library only.
"""

import html
import math
import os
import re
import sys

NUMBER = r"[-+]?\d+(?:\.\d+)?"


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return None


GOAL_LINE = re.compile(
    r"^GOAL (?P<id>[a-z0-9][a-z0-9-]*) value=(?P<value>" + NUMBER + r")(?P<unit>[A-Za-z%/]*) "
    r"(?P<op><=|>=|<|>) (?P<target>" + NUMBER + r")(?P<target_unit>[A-Za-z%/]*) (?P<verdict>PASS|FAIL)"
    r"(?: -- (?P<explanation>.*))?$"
)


def goal_lines(lines):
    """The GOAL lines of one output: dicts with id, value, goal, verdict, explanation.

    The verdict is checked against the numbers: a line whose PASS/FAIL does
    not follow from its value and target is reported as FAIL, so a
    benchmark cannot claim a goal its own figures miss.
    """
    goals = []
    for line in lines:
        match = GOAL_LINE.match(line.strip())
        if not match:
            if line.startswith("GOAL "):
                # A goal line whose figures cannot be read (`value=nan`, a
                # changed format) is a failed goal, never a missing one.
                words = line.split()
                explanation = line.partition(" -- ")[2]
                goals.append(
                    {
                        "id": words[1] if len(words) > 1 else "?",
                        "value": words[2].partition("=")[2] if len(words) > 2 else "?",
                        "goal": " ".join(words[3:5]) if len(words) > 4 else "?",
                        "verdict": "FAIL",
                        "explanation": ("(unreadable goal line) " + explanation).strip(),
                    }
                )
            continue
        value, target = float(match.group("value")), float(match.group("target"))
        met = {
            "<=": value <= target,
            ">=": value >= target,
            "<": value < target,
            ">": value > target,
        }[match.group("op")]
        verdict = match.group("verdict")
        note = match.group("explanation") or ""
        if (verdict == "PASS") != met:
            verdict = "FAIL"
            note = "(the line said %s, its figures say otherwise) %s" % (match.group("verdict"), note)
        goals.append(
            {
                "id": match.group("id"),
                "value": match.group("value") + match.group("unit"),
                "goal": "%s %s%s" % (match.group("op"), match.group("target"), match.group("target_unit")),
                "verdict": verdict,
                "explanation": note.strip(),
            }
        )
    return goals


def collect_goals(directory):
    """Every GOAL line of every NAME.txt that has a NAME.status, by benchmark name."""
    goals = []
    for entry in sorted(os.listdir(directory)):
        if not entry.endswith(".txt"):
            continue
        name = entry[: -len(".txt")]
        if not os.path.exists(os.path.join(directory, name + ".status")):
            continue
        for goal in goal_lines((read(os.path.join(directory, entry)) or "").splitlines()):
            goal["benchmark"] = name
            goals.append(goal)
    return goals


def goals_summary(goals):
    """The one-line count benchmarks/run ends with."""
    passed = sum(1 for goal in goals if goal["verdict"] == "PASS")
    return "goals: %d passed, %d failed" % (passed, len(goals) - passed)


def padded_figures(lines):
    """`label<padding to 48>value  (note)` lines of dpop/ and server/."""
    rows = []
    for line in lines:
        match = re.match(r"^(\S.*?)\s{2,}(" + NUMBER + r")(?:\s+\((.*)\))?\s*$", line)
        if match and not line.startswith("ratio"):
            rows.append((match.group(1), match.group(2), match.group(3) or ""))
    return rows


def ratio_lines(lines, prefix="ratio"):
    """`ratio A : B = x (rest)` lines: (what, value, rest)."""
    rows = []
    for line in lines:
        match = re.match(r"^ratio (.*?) = (" + NUMBER + r")\s*(.*)$", line)
        if match:
            rows.append((match.group(1), match.group(2), match.group(3).strip()))
    return rows


def parse_dpop(lines):
    return padded_figures(lines), ratio_lines(lines)


def parse_server(lines):
    figures = padded_figures(lines)
    for line in lines:
        if line.startswith("CPU in the window") or line.startswith("warm-up:") or line.startswith("machine:"):
            key, _, value = line.partition(": ")
            figures.append((key, value, ""))
        elif line.startswith("  201s in each second"):
            figures.append(("201s in each second of the window", line.split(": ", 1)[-1], ""))
        elif line.startswith("createMessage"):
            figures.append(("run", line, ""))
    return figures, ratio_lines(lines)


def parse_upload(lines):
    figures, ratios = [], []
    for line in lines:
        match = re.match(r"^(curl -T|CurlHTTPClient):\s+(" + NUMBER + r") MiB/s median, (" + NUMBER + r") best; (.*)$", line)
        if match:
            figures.append((match.group(1) + " median (MiB/s)", match.group(2), ""))
            figures.append((match.group(1) + " best (MiB/s)", match.group(3), ""))
            figures.append((match.group(1) + " memory", match.group(4), ""))
            continue
        match = re.match(r"^ratio: (" + NUMBER + r") of curl's throughput, medians \((.*?)\); (" + NUMBER + r") best", line)
        if match:
            ratios.append(("CurlHTTPClient : curl -T, medians", match.group(1), match.group(2)))
            ratios.append(("CurlHTTPClient : curl -T, best runs", match.group(3), ""))
            continue
        match = re.match(r"^\s+run (\d+): (.*)$", line)
        if match:
            figures.append(("run " + match.group(1), match.group(2), ""))
    return figures, ratios


SIZE_LINE = re.compile(
    r"^\s*(\d+) MiB: +(" + NUMBER + r") s +(" + NUMBER + r") MiB/s +peak RSS\s+(?:of share\s+)?(" + NUMBER + r") MiB(.*)$"
)


def memory_points(lines):
    """(size MiB, seconds, MiB/s, peak RSS MiB, rest) of the per-size lines."""
    points = []
    for line in lines:
        match = SIZE_LINE.match(line)
        if match:
            points.append(
                (int(match.group(1)), float(match.group(2)), float(match.group(3)), float(match.group(4)), match.group(5).strip())
            )
    return points


def parse_memory(lines):
    figures, ratios = [], []
    for size, seconds, rate, peak, rest in memory_points(lines):
        figures.append(("%d MiB" % size, "%.2f s, %.1f MiB/s, peak RSS %.1f MiB" % (seconds, rate, peak), rest))
    points = memory_points(lines)
    measured = [p for p in points if p[0] != 1]
    printed = any(re.match(r"^peak RSS \d+ MiB / \d+ MiB: ", line) for line in lines)
    if len(measured) > 1 and not printed:
        smallest, largest = min(measured), max(measured)
        ratios.append(
            ("peak RSS %d MiB : %d MiB (computed)" % (largest[0], smallest[0]), "%.3f" % (largest[3] / smallest[3]), "goal ~1.0")
        )
    for line in lines:
        match = re.match(r"^peak RSS (\d+) MiB / (\d+) MiB( reference)?: (" + NUMBER + r")\s*(.*)$", line)
        if match:
            what = "peak RSS %s MiB : %s MiB%s" % (match.group(1), match.group(2), match.group(3) or "")
            ratios.append((what, match.group(4), match.group(5).strip()))
            continue
        match = re.match(r"^peak RSS (\d+) MiB minus (\d+) MiB: (.*)$", line)
        if match:
            ratios.append(("peak RSS %s MiB - %s MiB" % (match.group(1), match.group(2)), match.group(3), ""))
            continue
        if line.startswith("peak RSS, largest:") or line.startswith("result:") or line.startswith("server sha256"):
            key, _, value = line.partition(": ")
            figures.append((key, value, ""))
    return figures, ratios


def parse_takeover(lines):
    figures, ratios = [], []
    for line in lines:
        match = re.match(r"^reference: (.*): (" + NUMBER + r") s$", line)
        if match:
            figures.append(("reference: " + match.group(1) + " (s)", match.group(2), ""))
            continue
        match = re.match(
            r"^takeover: (\d+) entries in (" + NUMBER + r") s \((" + NUMBER + r") entries/s; (" + NUMBER
            + r")x the time to write them, (" + NUMBER + r")x a plain rename\)",
            line,
        )
        if match:
            figures.append(("takeover of %s entries (s)" % match.group(1), match.group(2), match.group(3) + " entries/s"))
            ratios.append(("takeover : writing the entries", match.group(4), ""))
            ratios.append(("takeover : renaming plain folders", match.group(5), ""))
            continue
        match = re.match(
            r"^takeover\+send: (\d+) entries in (" + NUMBER + r") s with share-daemon --once \((" + NUMBER
            + r") entries/s; (" + NUMBER + r")x the time to write them; (.*)\)$",
            line,
        )
        if match:
            figures.append(
                ("takeover+send of %s entries, share-daemon --once (s)" % match.group(1), match.group(2), match.group(3) + " entries/s; " + match.group(5))
            )
            ratios.append(("takeover+send : writing the entries", match.group(4), ""))
            continue
        if line.startswith("goal:") or line.startswith("share-daemon --once:") or line.startswith("every entry"):
            key, _, value = line.partition(": ")
            figures.append((key, value, ""))
    return figures, ratios


def parse_daemon_memory(lines):
    """`idle after start: RSS ...` and `after N shares: RSS ...` readings."""
    figures, ratios = [], []
    readings = []
    for line in lines:
        match = re.match(r"^(idle after start|after (\d+) shares): RSS (" + NUMBER + r") MiB (.*)$", line)
        if match:
            figures.append((match.group(1) + " (VmRSS, MiB)", match.group(3), match.group(4)))
            readings.append((int(match.group(2) or 0), float(match.group(3))))
            continue
        if line.startswith("share-daemon stopped"):
            key, _, value = line.partition(": ")
            figures.append((key, value, ""))
    if len(readings) > 2:
        first, last = readings[1], readings[-1]
        ratios.append(("VmRSS after %d shares : after %d" % (last[0], first[0]), "%.3f" % (last[1] / first[1]), "goal ~1.0"))
    return figures, ratios


def parse_small_share(lines):
    figures = []
    for line in lines:
        match = re.match(r"^(share send --text.*|curl -s.*|share --version): median (" + NUMBER + r") ms \((.*)\)(.*)$", line)
        if match:
            figures.append((match.group(1) + " (ms)", match.group(2), (match.group(3) + match.group(4)).strip("; ")))
    return figures, ratio_lines(lines)


def parse_postgres(lines):
    figures = padded_figures(lines)
    for line in lines:
        if line.startswith("skipped:") or line.startswith("machine:"):
            key, _, value = line.partition(": ")
            figures.append((key, value, ""))
        elif line.startswith("PostgreSQL "):
            figures.append(("PostgreSQL", line[len("PostgreSQL "):], ""))
        elif line.startswith("createMessage"):
            figures.append(("run", line, ""))
    return figures, ratio_lines(lines)


def parse_photo_memory(lines):
    """`| picture | megapixels | peak RSS | above the reference | bytes per pixel |` rows of photo-memory/."""
    figures = []
    for line in lines:
        match = re.match(r"^photo-memory: reference .*: peak RSS (" + NUMBER + r") MiB", line)
        if match:
            figures.append(("reference, 64 x 32", match.group(1) + " MiB", "peak RSS of the whole process"))
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 5 and re.match(NUMBER + "$", cells[1]):
            figures.append(
                ("%s, %s MP" % (cells[0], cells[1]), cells[2], "%s above the reference, %s B/px" % (cells[3], cells[4]))
            )
    return figures, ratio_lines(lines)


BENCHMARKS = [
    ("dpop", "DPoP proofs", "openssl speed ecdsap256", parse_dpop),
    ("server", "share-server createMessage", "one thread verifying DPoP proofs; SQLite committing one-row transactions", parse_server),
    ("upload", "Upload throughput of the HTTP client", "curl -T", parse_upload),
    ("upload-memory", "Peak memory of an upload (StreamingUploader)", "the smallest size; VmHWM after login", parse_memory),
    ("takeover", "Inbox takeover and sending", "writing the entries with FileShareInbox; renaming folders", parse_takeover),
    ("share-memory", "Peak memory of share send", "a 1 MiB file; cp of the largest file", parse_memory),
    ("daemon-memory", "Memory of share-daemon", "its resident set after the first step", parse_daemon_memory),
    ("small-share", "Small share and start-up", "curl -s -o /dev/null URL/api/v1/health", parse_small_share),
    ("postgres", "share-server createMessage on PostgreSQL, one and two processes",
     "pgbench -n -f one-insert.sql -c 8 (one-row commits) on the same PostgreSQL", parse_postgres),
    ("photo-memory", "Peak memory of photo conversion", "a process converting a 64 x 32 picture", parse_photo_memory),
]


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(cell(value) for value in row) + " |" for row in rows]
    return out


def svg_plot(series, path):
    """Peak RSS (MiB) against file size (MiB, log scale); dashed references."""
    width, height = 720, 420
    left, right, top, bottom = 70, 230, 30, 55
    sizes = [size for _, _, points, _ in series for size, _ in points]
    peaks = [peak for _, _, points, _ in series for _, peak in points]
    peaks += [reference for _, _, _, reference in series if reference is not None]
    if not sizes:
        return False
    low, high = math.log2(min(sizes)), math.log2(max(sizes))
    low, high = low - 0.3, high + 0.3
    top_value = max(peaks) * 1.15
    top_value = max(8, math.ceil(top_value / 8) * 8)

    def x(size):
        return left + (math.log2(size) - low) / (high - low) * (width - left - right)

    def y(value):
        return top + (1 - value / top_value) * (height - top - bottom)

    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
        'font-family="sans-serif" font-size="12">' % (width, height, width, height),
        '<rect width="100%" height="100%" fill="white"/>',
        '<text x="%d" y="18" font-size="14">Peak RSS against file size</text>' % left,
    ]
    # Axes, grid and ticks.
    for step in range(0, 5):
        value = top_value * step / 4
        parts.append(
            '<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (left, y(value), width - right, y(value))
        )
        parts.append('<text x="%d" y="%.1f" text-anchor="end">%.0f</text>' % (left - 6, y(value) + 4, value))
    for exponent in range(math.ceil(low), math.floor(high) + 1):
        size = 2**exponent
        parts.append(
            '<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>' % (x(size), top, x(size), height - bottom)
        )
        label = "%d GiB" % (size // 1024) if size >= 1024 else "%d MiB" % size
        parts.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (x(size), height - bottom + 16, label))
    parts.append(
        '<polyline points="%d,%d %d,%d %d,%d" fill="none" stroke="black"/>'
        % (left, top, left, height - bottom, width - right, height - bottom)
    )
    parts.append(
        '<text x="%d" y="%d" text-anchor="middle">file size (log scale)</text>'
        % ((left + width - right) // 2, height - 12)
    )
    parts.append(
        '<text transform="translate(18,%d) rotate(-90)" text-anchor="middle">peak RSS (MiB)</text>'
        % ((top + height - bottom) // 2)
    )
    # Series, references and the legend.
    legend_y = top + 10
    for label, color, points, reference in series:
        points = sorted(points)
        if reference is not None:
            parts.append(
                '<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s" stroke-dasharray="6,4"/>'
                % (left, y(reference), width - right, y(reference), color)
            )
        if len(points) > 1:
            parts.append(
                '<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>'
                % (" ".join("%.1f,%.1f" % (x(s), y(p)) for s, p in points), color)
            )
        for size, peak in points:
            parts.append(
                '<circle cx="%.1f" cy="%.1f" r="4" fill="%s"><title>%s: %d MiB, %.1f MiB peak</title></circle>'
                % (x(size), y(peak), color, html.escape(label), size, peak)
            )
            parts.append(
                '<text x="%.1f" y="%.1f" text-anchor="middle" fill="%s">%.1f</text>' % (x(size), y(peak) - 8, color, peak)
            )
        parts.append(
            '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>'
            % (width - right + 12, legend_y, width - right + 36, legend_y, color)
        )
        parts.append('<text x="%d" y="%d">%s</text>' % (width - right + 42, legend_y + 4, html.escape(label)))
        legend_y += 18
        if reference is not None:
            parts.append(
                '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-dasharray="6,4"/>'
                % (width - right + 12, legend_y, width - right + 36, legend_y, color)
            )
            parts.append('<text x="%d" y="%d">reference %.1f MiB</text>' % (width - right + 42, legend_y + 4, reference))
            legend_y += 22
    parts.append("</svg>")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(parts) + "\n")
    return True


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    directory = sys.argv[1]
    machine = {}
    for line in (read(os.path.join(directory, "machine.env")) or "").splitlines():
        key, _, value = line.partition("=")
        machine[key] = value

    report = ["# ShareKit benchmark report", ""]
    report += table(
        ["", ""],
        [
            ("date", machine.get("date", "")),
            ("mode", machine.get("mode", "")),
            (
                "commit",
                "`%s` %s%s"
                % (
                    machine.get("commit", "")[:12],
                    machine.get("commit_subject", "")[:80],
                    "" if machine.get("dirty_files", "0") == "0" else " (+%s uncommitted changes)" % machine["dirty_files"],
                ),
            ),
            ("CPU", "%s, %s cores" % (machine.get("cpu", "?"), machine.get("cores", "?"))),
            ("memory", machine.get("memory", "")),
            ("kernel", machine.get("kernel", "")),
            ("OS", machine.get("os", "")),
            ("Swift", machine.get("swift", "")),
            ("load average at start", machine.get("loadavg", "")),
        ],
    )
    report += [
        "",
        "Every ratio is against a reference measured in the same run, so it is the figure to compare across "
        "machines; absolute figures move with the machine and whatever else it runs.",
        "",
    ]

    goals = collect_goals(directory)
    if goals:
        report += ["## Goals", ""]
        report += table(
            ["goal", "value", "target", "result", "benchmark", "explanation"],
            [
                (
                    "`%s`" % goal["id"],
                    goal["value"],
                    goal["goal"],
                    "**%s**" % goal["verdict"] if goal["verdict"] == "FAIL" else goal["verdict"],
                    "[%s](#%s)" % (goal["benchmark"], goal["benchmark"]),
                    goal["explanation"],
                )
                for goal in goals
            ],
        )
        report += ["", goals_summary(goals), ""]

    summary, sections, series = [], [], []
    # A benchmark without an entry in BENCHMARKS still gets its section
    # (goal lines and raw output), so a new one is never left out.
    known = {entry[0] for entry in BENCHMARKS}
    extra = sorted(
        entry[: -len(".status")]
        for entry in os.listdir(directory)
        if entry.endswith(".status") and entry[: -len(".status")] not in known
    )
    for name, title, reference, parse in BENCHMARKS + [
        (name, name, "see its output", lambda lines: ([], ratio_lines(lines))) for name in extra
    ]:
        status = (read(os.path.join(directory, name + ".status")) or "").strip()
        if not status:
            continue
        output = read(os.path.join(directory, name + ".txt")) or ""
        lines = output.splitlines()
        figures, ratios = parse(lines)
        command = (read(os.path.join(directory, name + ".command")) or "").strip()
        ok = status.startswith("exit 0")
        verdicts = [
            line for line in lines if re.search(r"\b(PASS|FAIL|BELOW GOAL)\b", line) and not line.startswith("GOAL ")
        ]
        summary.append(
            (
                "[%s](#%s)" % (name, name),
                "ok" if ok else "**FAILED** (%s)" % status,
                "; ".join("%s = %s" % (what, value) for what, value, _ in ratios[:2]) or "",
            )
        )
        section = ['<a id="%s"></a>' % name, "## %s (`%s/`)" % (title, name), ""]
        section += ["`%s` - %s; reference: %s." % (command, status, reference), ""]
        if ratios:
            section += ["**Ratios**", ""] + table(["ratio", "value", "note"], ratios) + [""]
        if figures:
            section += ["**Figures**", ""] + table(["figure", "value", "note"], figures) + [""]
        own_goals = goal_lines(lines)
        if own_goals:
            section += ["**Goals**", ""] + table(
                ["goal", "value", "target", "result", "explanation"],
                [(g["id"], g["value"], g["goal"], g["verdict"], g["explanation"]) for g in own_goals],
            ) + [""]
        if verdicts:
            section += ["Verdicts: " + "; ".join("`%s`" % v.strip() for v in verdicts), ""]
        if not ok:
            stderr = (read(os.path.join(directory, name + ".stderr")) or "").splitlines()[-15:]
            section += ["End of its stderr:", "", "```"] + stderr + ["```", ""]
        section += ["<details><summary>Raw output</summary>", "", "```"] + lines + ["```", "", "</details>", ""]
        sections += section

        if name in ("upload-memory", "share-memory"):
            points = memory_points(lines)
            if name == "share-memory":
                references = [peak for size, _, _, peak, _ in points if size == 1]
                plotted = [(size, peak) for size, _, _, peak, _ in points if size != 1]
                ref = references[0] if references else None
                series.append(("share send (ru_maxrss)", "#1f77b4", plotted, ref))
            else:
                logins = [float(m.group(1)) for m in (re.search(r"after login (" + NUMBER + ")", p[4]) for p in points) if m]
                ref = max(logins) if logins else None
                series.append(("StreamingUploader (VmHWM)", "#d62728", [(p[0], p[3]) for p in points], ref))

    report += ["## Summary", ""] + table(["benchmark", "status", "ratios"], summary) + [""]
    plotted = svg_plot([s for s in series if s[2]], os.path.join(directory, "memory.svg"))
    if plotted:
        report += [
            "## Peak memory against file size",
            "",
            "![peak RSS against file size](memory.svg)",
            "",
            "[memory.svg](memory.svg): peak RSS of `share send` (share-memory, whole CLI process) and of an upload "
            "with `StreamingUploader` (upload-memory, a fresh process) for each file size, sizes on a log scale. "
            "The dashed lines are the references: for share send the peak of sending a 1 MiB file, for the "
            "uploader its `VmHWM` after login, before the upload. Flat lines on the references mean memory "
            "does not grow with the file.",
            "",
        ]
    report += sections
    with open(os.path.join(directory, "report.md"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(report) + "\n")
    print(goals_summary(goals))
    return 0


if __name__ == "__main__":
    sys.exit(main())
