#!/usr/bin/env python3
"""Flame graph of a flight recording's execution samples, as a self-contained SVG (no other tool needed).

    python3 bench/flamegraph.py recording.jfr out.svg [title] [--only frame]

Reads `jfr print --events jdk.ExecutionSample --stack-depth 96`, folds the stacks (the sampled thread's name, digits
dropped, as the root frame, so the decoders' threads add up), and draws one rectangle per frame, its width the share of
samples; hovering a frame shows its name and count. Also writes the folded stacks next to the SVG (`.folded`). With
--only, just the samples under a frame whose name starts with the given text (for example
io.lifeline.runtime.ModelSnapshot.take), drawn from that frame up.
"""
import html
import re
import subprocess
import sys
from collections import defaultdict

MIN_WIDTH = 0.1  # pixels: narrower frames are not drawn
WIDTH, ROW = 1800, 16


def samples(jfr_file):
    out = subprocess.run(["jfr", "print", "--events", "jdk.ExecutionSample", "--stack-depth", "96", jfr_file],
                         check=True, capture_output=True, text=True).stdout
    thread, frames, in_stack = None, [], False
    for line in out.splitlines():
        s = line.strip()
        if s.startswith("sampledThread"):
            m = re.search(r'"(.*)"', s)
            thread = re.sub(r"[-#]?\d+$", "", m.group(1)) if m else "?"
        elif s.startswith("stackTrace = ["):
            in_stack, frames = True, []
        elif in_stack and s == "]":
            in_stack = False
            yield [thread or "?"] + [f for f in reversed(frames) if f != "..."]
        elif in_stack and s:
            frames.append(re.sub(r"\s+line:.*$", "", s).replace("...", "").strip() or "...")


def fold(stacks):
    folded = defaultdict(int)
    for st in stacks:
        folded[";".join(st)] += 1
    return folded


def tree(folded):
    root = {"n": 0, "c": {}}
    for stack, count in folded.items():
        node = root
        node["n"] += count
        for f in stack.split(";"):
            node = node["c"].setdefault(f, {"n": 0, "c": {}})
            node["n"] += count
    return root


def colour(name):
    h = sum(ord(c) for c in name) % 60
    if name.startswith(("io.lifeline", "lifeline")):
        return f"rgb({200 + h % 55},{120 + h},{40})"
    if name.startswith(("com.fasterxml", "org.postgresql", "org.apache.kafka", "io.vertx", "io.netty")):
        return f"rgb({80 + h},{150 + h},{200})"
    return f"rgb({220},{90 + h},{60 + h // 2})"


def render(root, title, total):
    rects = []
    depth = [0]

    def walk(node, name, x, level):
        w = WIDTH * node["n"] / total
        if w < MIN_WIDTH:
            return
        depth[0] = max(depth[0], level)
        if name is not None:
            rects.append((x, level, w, name, node["n"]))
        cx = x
        for child_name, child in sorted(node["c"].items()):
            walk(child, child_name, cx, level + 1)
            cx += WIDTH * child["n"] / total

    walk(root, None, 0, 0)
    height = (depth[0] + 3) * ROW
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" font-family="monospace" '
           f'font-size="11"><rect width="100%" height="100%" fill="#fff"/>',
           f'<text x="4" y="13" font-size="13">{html.escape(title)} ({total} samples)</text>']
    for x, level, w, name, n in rects:
        y = height - (level + 1) * ROW
        label = name if w > 40 else ""
        chars = int(w / 6.6)
        if len(label) > chars:
            label = label[:max(0, chars - 2)] + ".." if chars > 3 else ""
        pct = 100.0 * n / total
        out.append(f'<g><title>{html.escape(name)} ({n} samples, {pct:.1f}%)</title>'
                   f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{ROW - 1}" fill="{colour(name)}"/>'
                   f'<text x="{x + 2:.1f}" y="{y + 11}">{html.escape(label)}</text></g>')
    out.append("</svg>")
    return "\n".join(out)


def only(stacks, frame):
    """The stacks that pass through a frame starting with `frame`, from that frame up (the thread kept as root)."""
    for st in stacks:
        for i, f in enumerate(st):
            if f.startswith(frame):
                yield [st[0]] + st[i:]
                break


def main():
    args = sys.argv[1:]
    frame = None
    if "--only" in args:
        i = args.index("--only")
        frame = args[i + 1]
        del args[i:i + 2]
    jfr_file, svg = args[0], args[1]
    title = args[2] if len(args) > 2 else jfr_file
    stacks = samples(jfr_file)
    folded = fold(only(stacks, frame) if frame else stacks)
    with open(svg.rsplit(".", 1)[0] + ".folded", "w") as f:
        for stack, count in sorted(folded.items()):
            f.write(f"{stack} {count}\n")
    total = sum(folded.values())
    if total == 0:
        sys.exit("no execution samples in " + jfr_file)
    with open(svg, "w") as f:
        f.write(render(tree(folded), title, total))
    print(f"{svg}: {total} samples")


if __name__ == "__main__":
    main()
