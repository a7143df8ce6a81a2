#!/usr/bin/env python3
"""Checks the bundled story packages against shared/STORY_FORMAT.md (version 1).

Usage: scripts/check-stories.py [Stories/<folder> ...]   (default: every folder under Stories/)

Checks: valid JSON; format 1; id pattern; beat id == file name; every listed beat has a file and
every file is listed; page ids unique; page types and fields; choice page last with 1-9 choices;
every target exists and is listed; every beat reachable from startBeatId; at least one ending;
asset paths relative with '/' only and existing; sounds readable by `sox --i` and not silent;
PNGs readable by `identify`; text art <= 40 columns x 12 lines with no tabs or control characters;
lines under 200 characters. Exits 1 on any error; prints a summary per story.
"""
import json, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,128}$")
LEVELS = {"optional", "important", "critical"}
errors = []
warnings = []


def err(story, msg): errors.append(f"{story}: {msg}")
def warn(story, msg): warnings.append(f"{story}: {msg}")


def bad_path(p):
    return (not isinstance(p, str) or p == "" or p.startswith("/") or "\\" in p or "\0" in p
            or "://" in p or ".." in p.split("/") or re.match(r"^[A-Za-z]:", p) is not None)


def check_asset(story, folder, path, where, seen):
    if bad_path(path):
        err(story, f"{where}: invalid asset path {path!r}")
        return
    full = os.path.join(folder, path)
    if not os.path.isfile(full):
        err(story, f"{where}: missing asset {path}")
        return
    seen.add(path)


def check_sound(story, full):
    r = subprocess.run(["sox", "--i", full], capture_output=True, text=True)
    if r.returncode != 0:
        err(story, f"sox cannot read {full}: {r.stderr.strip()}")
        return None
    dur = float(subprocess.run(["sox", "--i", "-D", full], capture_output=True, text=True).stdout)
    st = subprocess.run(["sox", full, "-n", "stat"], capture_output=True, text=True).stderr
    peak = float(re.search(r"Maximum amplitude:\s+(\S+)", st).group(1))
    rms = float(re.search(r"RMS\s+amplitude:\s+(\S+)", st).group(1))
    if rms < 0.005:
        err(story, f"{full}: nearly silent (RMS {rms:.4f})")
    if peak >= 0.999:
        warn(story, f"{full}: peak {peak:.3f} may clip")
    if not 0.2 <= dur <= 4.5:
        warn(story, f"{full}: {dur:.2f} s long")
    return dur, peak, rms


def check_image(story, full):
    if full.endswith(".txt"):
        with open(full, "rb") as f:
            raw = f.read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            err(story, f"{full}: not UTF-8"); return
        lines = text.rstrip("\n").split("\n")
        if len(lines) > 12: err(story, f"{full}: {len(lines)} lines (max 12)")
        if max(len(l) for l in lines) > 40: err(story, f"{full}: wider than 40 columns")
        if any((ord(c) < 32 and c != "\n") or ord(c) == 127 for c in text):
            err(story, f"{full}: tab or control character")
        return
    r = subprocess.run(["identify", "-format", "%m %w %h", full], capture_output=True, text=True)
    if r.returncode != 0 or not r.stdout.startswith("PNG"):
        err(story, f"identify does not read {full} as PNG: {r.stderr.strip() or r.stdout}")


def check_story(folder):
    story = os.path.relpath(folder, ROOT)
    try:
        with open(os.path.join(folder, "story.json")) as f:
            m = json.load(f)
    except Exception as e:
        err(story, f"story.json: {e}"); return
    if m.get("format") != 1: err(story, "format must be 1")
    if not ID_RE.match(str(m.get("id", ""))): err(story, "bad id")
    if not isinstance(m.get("title"), str) or not m["title"]: err(story, "title missing")
    listed = m.get("beats", [])
    if len(set(listed)) != len(listed): err(story, "beats list has duplicates")
    files = sorted(f[:-5] for f in os.listdir(os.path.join(folder, "beats")) if f.endswith(".json"))
    for b in listed:
        if b not in files: err(story, f"listed beat {b} has no file")
    for b in files:
        if b not in listed: err(story, f"beat file {b}.json is not listed")
    start = m.get("startBeatId")
    if start not in files: err(story, f"startBeatId {start} has no file")
    assets = set()
    for path, level in m.get("assets", {}).get("criticality", {}).items():
        check_asset(story, folder, path, f"criticality[{path}]", assets)
        if level not in LEVELS: err(story, f"criticality[{path}]: unknown level {level}")
    edges, endings, counts = {}, [], {"pages": 0, "lines": 0, "choices": 0, "sounds": 0, "images": 0}
    for b in files:
        where = f"beats/{b}.json"
        try:
            with open(os.path.join(folder, "beats", b + ".json")) as f:
                beat = json.load(f)
        except Exception as e:
            err(story, f"{where}: {e}"); continue
        if beat.get("id") != b: err(story, f"{where}: id {beat.get('id')!r} != file name")
        pages = beat.get("pages", [])
        if not pages: err(story, f"{where}: no pages")
        ids = [p.get("id") for p in pages]
        if len(set(ids)) != len(ids): err(story, f"{where}: duplicate page ids")
        targets = []
        for i, p in enumerate(pages):
            pw = f"{where} page {p.get('id')}"
            counts["pages"] += 1
            t = p.get("type")
            if t == "title":
                if not p.get("title"): err(story, f"{pw}: title missing")
            elif t == "text":
                lines = p.get("lines", [])
                if not lines: err(story, f"{pw}: no lines")
                counts["lines"] += len(lines)
                for l in lines:
                    if not isinstance(l, str) or not l.strip(): err(story, f"{pw}: empty line")
                    elif len(l) > 200: warn(story, f"{pw}: line of {len(l)} characters")
            elif t == "choice":
                if i != len(pages) - 1: err(story, f"{pw}: choice page is not last")
                cs = p.get("choices", [])
                if not 1 <= len(cs) <= 9: err(story, f"{pw}: {len(cs)} choices")
                for c in cs:
                    counts["choices"] += 1
                    tgt = c.get("targetBeatId")
                    targets.append(tgt)
                    if tgt not in files: err(story, f"{pw}: target {tgt} has no file")
                    if tgt not in listed: err(story, f"{pw}: target {tgt} is not listed")
                    if "sound_url" in c:
                        check_asset(story, folder, c["sound_url"], f"{pw} choice sound", assets)
                        counts["sounds"] += 1
            else:
                err(story, f"{pw}: unknown type {t}")
            if "imageUrl" in p:
                check_asset(story, folder, p["imageUrl"], f"{pw} imageUrl", assets)
                counts["images"] += 1
            for tool in p.get("tools", []):
                if tool.get("name") != "sound_effect":
                    warn(story, f"{pw}: unknown tool {tool.get('name')}"); continue
                a = tool.get("args", {})
                if a.get("trigger") not in ("page_enter", "tap"): warn(story, f"{pw}: trigger {a.get('trigger')}")
                check_asset(story, folder, a.get("sound_url"), f"{pw} sound_url", assets)
                counts["sounds"] += 1
        nxt = beat.get("nextBeatId")
        if nxt is not None:
            if pages and pages[-1].get("type") == "choice": warn(story, f"{where}: nextBeatId after a choice page is never used")
            if nxt not in files: err(story, f"{where}: nextBeatId {nxt} has no file")
            if nxt not in listed: err(story, f"{where}: nextBeatId {nxt} is not listed")
            targets.append(nxt)
        if pages and pages[-1].get("type") != "choice" and nxt is None:
            endings.append(b)
        edges[b] = targets
    seen, todo = set(), [start]
    while todo:
        b = todo.pop()
        if b in seen or b not in edges: continue
        seen.add(b); todo.extend(edges[b])
    for b in files:
        if b not in seen: err(story, f"beat {b} is unreachable from {start}")
    if not endings: err(story, "no ending")
    # every file under assets/ should be used
    for dirpath, _, names in os.walk(os.path.join(folder, "assets")):
        for n in names:
            rel = os.path.relpath(os.path.join(dirpath, n), folder).replace(os.sep, "/")
            if rel not in assets: warn(story, f"asset {rel} is not referenced")
    total_sound = 0.0
    for a in sorted(assets):
        full = os.path.join(folder, a)
        if a.endswith((".wav", ".ogg", ".flac", ".mp3", ".opus")):
            check_sound(story, full)
        else:
            check_image(story, full)
    # shortest path to each ending, in beats
    dist, frontier = {start: [start]}, [start]
    while frontier:
        nxt_frontier = []
        for b in frontier:
            for t in edges.get(b, []):
                if t not in dist:
                    dist[t] = dist[b] + [t]; nxt_frontier.append(t)
        frontier = nxt_frontier
    size = sum(os.path.getsize(os.path.join(d, n)) for d, _, ns in os.walk(folder) for n in ns)
    print(f"{story}: {len(files)} beats, {counts['pages']} pages, {counts['lines']} lines, "
          f"{counts['choices']} choices, {len(endings)} endings ({', '.join(endings)}), "
          f"{len(assets)} assets, {size/1024:.0f} KiB")
    for e in endings:
        if e in dist: print(f"   shortest path to {e}: {' > '.join(dist[e])}")


def main():
    folders = sys.argv[1:] or sorted(
        os.path.join(ROOT, "Stories", d) for d in os.listdir(os.path.join(ROOT, "Stories"))
        if os.path.isfile(os.path.join(ROOT, "Stories", d, "story.json")))
    for f in folders:
        check_story(os.path.abspath(f))
    for w in warnings: print("warning:", w)
    for e in errors: print("error:", e)
    print(f"{len(errors)} errors, {len(warnings)} warnings")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
