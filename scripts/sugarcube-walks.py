#!/usr/bin/env python3
"""Records seeded walks through the SugarCube corpus with SugarCube's own engine in headless Chromium.

    scripts/sugarcube-walks.py FORMAT_JS [--corpus DIR] [--out DIR] [--seeds 5] [--steps 40] [STORY ...]

FORMAT_JS is SugarCube's `format.js` as Twine ships it (github:klembot/twinejs,
public/story-formats/sugarcube-2.*/format.js): fetched by whoever records, kept outside the repository,
never committed. For each story of the corpus (../shared/corpora/sugarcube: twee, Tweego folder or published
`<tw-storydata>`) a published page is built under /tmp (Twee 3 parsed here: passages, tags, StoryData;
`script` passages into the story's script, `stylesheet` into its stylesheet, as Tweego does), then walked
along each seed: at each page the visible text of `#passages`, its links, the one clicked (a seeded random
pick), the passage, and SugarCube's error boxes. Math.random is the same seeded mulberry32 Pajama uses
(SugarCubeState's seed), timers run 100 times faster, storage starts empty. Needs chromium, chromium-driver
(Debian) and selenium (PyPI). Writes Tests/Fixtures/sugarcube-walks/ID.SEED.json (its README gives the format).
"""
import argparse
import html
import json
import os
import random
import re
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# ---------------------------------------------------------------- story files, as TwineFiles finds them


def is_twee(name):
    return name.lower().endswith((".twee", ".tw"))


def has_twine(path):
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        return False
    return "<tw-storydata" in text or re.search(r"^::", text, re.M) is not None


def story_files(folder):
    names = sorted(n for n in os.listdir(folder) if not n.startswith("."))
    twee = [n for n in names if is_twee(n) and has_twine(os.path.join(folder, n))]
    if twee:
        below = []

        def walk(rel, entries, depth):
            for n in entries:
                if n.startswith("."):
                    continue
                path = n if not rel else rel + "/" + n
                full = os.path.join(folder, path)
                if os.path.isdir(full):
                    inner = sorted(os.listdir(full))
                    if depth < 8 and "story.json" not in inner:
                        walk(path, inner, depth + 1)
                elif rel and is_twee(n) and has_twine(full):
                    below.append(path)

        walk("", names, 0)
        return twee + below
    pages = [n for n in names if n.lower().endswith((".html", ".htm")) and has_twine(os.path.join(folder, n))]
    for usual in ("index.html", "story.html"):
        if usual in pages:
            return [usual]
    return pages[:1]


# ---------------------------------------------------------------- Twee 3


def parse_header(line):
    """`:: Name [tags] {metadata}` -> (name, tags); `\\` escapes in the name (an escaped space is kept)."""
    rest = line[2:]
    name, escaped, i = [], False, 0
    while i < len(rest):
        c = rest[i]
        if escaped:
            name.append((c, True))
            escaped = False
        elif c == "\\":
            escaped = True
        elif c in "[{":
            break
        else:
            name.append((c, False))
        i += 1
    while name and not name[0][1] and name[0][0] in " \t":
        name.pop(0)
    while name and not name[-1][1] and name[-1][0] in " \t":
        name.pop()
    tags = []
    tail = rest[i:].strip()
    if tail.startswith("["):
        close = tail.find("]")
        if close > 0:
            tags = tail[1:close].split()
    return "".join(c for c, _ in name), tags


def parse_twee(text):
    passages, current = [], None
    for line in text.split("\n"):
        if line.startswith("::"):
            name, tags = parse_header(line.rstrip("\r"))
            current = {"name": name, "tags": tags, "lines": []}
            passages.append(current)
        elif current is not None:
            current["lines"].append(line[1:] if line.startswith("\\::") else line)
    for p in passages:
        p["text"] = "\n".join(p.pop("lines")).rstrip("\r\n\t ")
    return passages


def storydata_from_twee(passages):
    title, data, kept = "", {}, []
    for p in passages:
        if p["name"] == "StoryTitle":
            title = p["text"].strip()
        elif p["name"] == "StoryData":
            data = json.loads(p["text"])
        else:
            kept.append(p)
    scripts = [p["text"] for p in kept if "script" in p["tags"]]
    styles = [p["text"] for p in kept if "stylesheet" in p["tags"]]
    story = [p for p in kept if "script" not in p["tags"] and "stylesheet" not in p["tags"]]
    start = data.get("start") or "Start"
    out = ['<tw-storydata name="%s" startnode="%d" creator="pajama-sugarcube-walks" creator-version="1" ifid="%s" '
           'zoom="1" format="SugarCube" format-version="%s" options="" hidden>'
           % (html.escape(title or "Untitled", quote=True), next((i + 1 for i, p in enumerate(story) if p["name"] == start), 1),
              html.escape(data.get("ifid", "00000000-0000-4000-8000-000000000000")), html.escape(data.get("format-version", "2.37.3")))]
    out.append('<style role="stylesheet" id="twine-user-stylesheet" type="text/twine-css">%s</style>' % "\n".join(styles))
    out.append('<script role="script" id="twine-user-script" type="text/twine-javascript">%s</script>'
               % "\n".join(scripts).replace("</script", "<\\/script"))
    for i, p in enumerate(story):
        out.append('<tw-passagedata pid="%d" name="%s" tags="%s" position="0,0" size="100,100">%s</tw-passagedata>'
                   % (i + 1, html.escape(p["name"], quote=True), html.escape(" ".join(p["tags"]), quote=True), html.escape(p["text"], quote=False)))
    out.append("</tw-storydata>")
    return "\n".join(out)


def storydata(folder):
    files = story_files(folder)
    if len(files) == 1 and files[0].lower().endswith((".html", ".htm")):
        text = open(os.path.join(folder, files[0]), encoding="utf-8").read()
        m = re.search(r"<tw-storydata[\s\S]*</tw-storydata>", text, re.I)
        return m.group(0), files
    text = "\n".join(open(os.path.join(folder, f), encoding="utf-8", errors="replace").read() for f in files)
    return storydata_from_twee(parse_twee(text.replace("\r\n", "\n"))), files


# ---------------------------------------------------------------- the page

# Before the engine: Math.random is Pajama's mulberry32 with SugarCubeState's seed; timers run 100 times
# faster; storage starts empty (a new walk never resumes the last); alerts are recorded.
PRELUDE = r"""<script>
(function () {
  try { sessionStorage.clear(); localStorage.clear(); } catch (e) {}
  var seed = parseInt((location.search.match(/seed=(\d+)/) || [0, 1])[1], 10);
  function mulberry32(r) {
    return function () {
      r = (r + 0x6D2B79F5) | 0;
      var t = r;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  // The story's draws (its code, SugarCube's either()/random()/[].random()) come from the generator Pajama
  // seeds; the libraries' own (jQuery's expando and Sizzle's matcher runs, seedrandom's pool), which a reader
  // without jQuery never makes, from another, so they do not move the story's numbers. A draw is the
  // libraries' when its caller is in the lines of the page's script-libraries, first to last below.
  var story = mulberry32((Math.imul(seed, 2654435761) + 12345) | 0), libraries = mulberry32(seed ^ 0x5bd1e995);
  var first = LIBRARY_FIRST, last = LIBRARY_LAST, at = /:(\d+):\d+\)?$/;
  window.__walk_draws = { story: 0, libraries: 0 };
  Math.random = function () {
    var caller = (new Error().stack || "").split("\n")[2] || "", line = at.exec(caller.trim());
    var n = line ? parseInt(line[1], 10) : 0;
    if (n >= first && n <= last) { window.__walk_draws.libraries++; return libraries(); }
    window.__walk_draws.story++;
    return story();
  };
  var st = window.setTimeout, si = window.setInterval;
  window.setTimeout = function (f, d) { var a = [].slice.call(arguments, 2); return st.apply(window, [f, Math.min(d || 0, 100000) / 100].concat(a)); };
  window.setInterval = function (f, d) { var a = [].slice.call(arguments, 2); return si.apply(window, [f, Math.max(20, (d || 0) / 100)].concat(a)); };
  window.__walk = { alerts: [], changed: Date.now() };
  window.alert = function (m) { window.__walk.alerts.push(String(m)); };
  window.confirm = function (m) { window.__walk.alerts.push(String(m)); return true; };
  window.prompt = function (m, d) { window.__walk.alerts.push(String(m)); return d || ""; };
  new MutationObserver(function () { window.__walk.changed = Date.now(); })
    .observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
})();
</script>
"""


def build_page(format_js, data, title):
    raw = open(format_js, encoding="utf-8").read()
    start, end = raw.index("(") + 1, raw.rindex(")")
    fmt = json.loads(raw[start:end])
    source = fmt["source"]
    source = source.replace("<head>", "<head>\n" + PRELUDE, 1)
    page = source.replace("{{STORY_NAME}}", html.escape(title)).replace("{{STORY_DATA}}", data)
    return fmt["version"], page


def with_library_lines(page):
    """The page with the prelude told which of its lines are SugarCube's libraries (jQuery, seedrandom...)."""
    start = page.index('<script id="script-libraries"')
    end = page.index("</script>", start)
    first, last = page.count("\n", 0, start) + 1, page.count("\n", 0, end) + 1
    return page.replace("LIBRARY_FIRST", str(first), 1).replace("LIBRARY_LAST", str(last), 1)


# ---------------------------------------------------------------- walking

READ = r"""
var root = document.getElementById('passages');
function visible(e) { return !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length); }
function label(e) { return (e.innerText || e.textContent || e.getAttribute('alt') || '').replace(/\s+/g, ' ').trim(); }
var links = [], kinds = [];
if (root) {
  var all = root.querySelectorAll('a, button, [data-passage]');
  for (var i = 0; i < all.length; i++) {
    var e = all[i];
    if (!visible(e) || e.closest('.error-view') || e.matches('.passage, #passages')) continue;
    if (e.disabled || e.getAttribute('aria-disabled') === 'true') continue;
    var kind = null;
    if (e.matches('.macro-cycle, .macro-listbox')) kind = null;
    else if (e.matches('.link-broken')) kind = 'broken';
    else if (e.matches('.link-internal')) kind = e.tagName === 'BUTTON' ? 'button' : 'link';
    else if (e.hasAttribute('data-passage')) kind = 'data-passage';
    if (!kind) continue;
    e.setAttribute('data-walk-link', String(links.length));
    links.push(label(e)); kinds.push(kind);
  }
}
// A <select>'s innerText is all its options; the page shows the one selected, and so does the text.
var shown = [];
if (root) root.querySelectorAll('select').forEach(function (s) {
  var span = document.createElement('span');
  span.textContent = s.selectedIndex >= 0 ? s.options[s.selectedIndex].text : '';
  s.parentNode.insertBefore(span, s);
  shown.push([s, span, s.style.display]);
  s.style.display = 'none';
});
var text = root ? root.innerText : '';
shown.forEach(function (e) { e[1].remove(); e[0].style.display = e[2]; });
var errors = [];
if (root) root.querySelectorAll('.error-view .error, .error').forEach(function (e) { errors.push(e.textContent.trim()); });
return { text: text, links: links, kinds: kinds, errors: errors,
         passage: (window.SugarCube && SugarCube.State) ? SugarCube.State.passage : null,
         turns: (window.SugarCube && SugarCube.State) ? SugarCube.State.turns : null,
         alerts: window.__walk ? window.__walk.alerts.splice(0) : [],
         quiet: window.__walk ? Date.now() - window.__walk.changed : 0 };
"""


def settle(driver, deadline=6.0, quiet_ms=200):
    """Waits until the page has not changed for quiet_ms (timers run), within a deadline."""
    until = time.time() + deadline
    while True:
        # <<type>> finishes at once on its skip key (Config.macros.typeSkipKey, Control by default), which
        # type.js takes only from a keydown whose target is the body (a keydown on document is ignored).
        state = driver.execute_script("var typing = document.querySelectorAll('.macro-type-cursor').length; "
                                      "if (typing && window.SugarCube) document.body.dispatchEvent(new KeyboardEvent('keydown', "
                                      "{ key: (SugarCube.Config.macros && SugarCube.Config.macros.typeSkipKey) || 'Control', bubbles: true })); "
                                      "return { ready: !!(window.SugarCube && SugarCube.State && document.querySelector('#passages .passage')), "
                                      "typing: typing, quiet: window.__walk ? Date.now() - window.__walk.changed : 0 };")
        if state["ready"] and not state["typing"] and state["quiet"] >= quiet_ms:
            return True
        if time.time() > until:
            return False
        time.sleep(0.05)


def walk(driver, page, story, seed, steps, version):
    driver.get("file://%s?seed=%d" % (page, seed))
    settle(driver, deadline=15.0)
    pick = random.Random(seed * 7919 + 17)
    record = {"story": story, "seed": seed, "engine": "SugarCube %s in Chromium" % version, "end": "max-steps", "steps": []}
    for _ in range(steps):
        seen = driver.execute_script(READ)
        step = {"text": seen["text"], "links": seen["links"], "kinds": seen["kinds"], "errors": seen["errors"],
                "dialog": seen["alerts"], "passage": seen["passage"], "same_passage": False, "chosen": None}
        if record["steps"]:
            step["same_passage"] = seen["turns"] == record["turns"]
        record["turns"] = seen["turns"]
        record["steps"].append(step)
        usable = [i for i, k in enumerate(seen["kinds"]) if k != "broken"]
        if not usable:
            record["end"] = "no-links"
            break
        chosen = pick.choice(usable)
        step["chosen"] = chosen
        try:
            driver.execute_script("var e = document.querySelector('[data-walk-link=\"%d\"]'); window.__walk.changed = Date.now(); e.click();" % chosen)
        except Exception as error:  # noqa: BLE001 - any failure ends the walk with its reason
            record["end"] = "click-failed: %s" % str(error).splitlines()[0]
            break
        time.sleep(0.06)
        settle(driver)
    record.pop("turns", None)
    return record


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("format_js")
    parser.add_argument("--corpus", default=os.path.join(os.path.dirname(ROOT), "shared/corpora/sugarcube"))
    parser.add_argument("--out", default=os.path.join(ROOT, "Tests/Fixtures/sugarcube-walks"))
    parser.add_argument("--pages", default="/tmp/sugarcube-walk-pages")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("stories", nargs="*")
    args = parser.parse_args()
    corpus = os.path.abspath(args.corpus)
    ids = args.stories or sorted(n for n in os.listdir(corpus) if os.path.isdir(os.path.join(corpus, n)))
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.pages, exist_ok=True)
    options = Options()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--allow-file-access-from-files",
                 "--window-size=1200,900"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(10)
    driver.set_page_load_timeout(60)
    try:
        for story in ids:
            folder = os.path.join(corpus, story)
            data, files = storydata(folder)
            m = re.search(r'name="([^"]*)"', data)
            version, page_html = build_page(args.format_js, data, html.unescape(m.group(1)) if m else story)
            # The page sits in the story's own folder's place for its pictures: a <base> to the corpus folder.
            page_html = with_library_lines(page_html.replace("<head>", '<head>\n<base href="file://%s/">' % folder, 1))
            page = os.path.join(args.pages, story + ".html")
            with open(page, "w", encoding="utf-8") as out:
                out.write(page_html)
            for seed in range(1, args.seeds + 1):
                record = walk(driver, page, story, seed, args.steps, version)
                with open(os.path.join(args.out, "%s.%d.json" % (story, seed)), "w", encoding="utf-8") as out:
                    json.dump(record, out, ensure_ascii=False, indent=1)
                    out.write("\n")
                print("%s seed %d: %d steps, %s" % (story, seed, len(record["steps"]), record["end"]), flush=True)
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(main())
