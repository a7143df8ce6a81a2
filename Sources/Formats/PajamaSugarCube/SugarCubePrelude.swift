/// The SugarCube API a story's JavaScript sees (docs/sugarcube.md, "JavaScript"), run once in every new
/// engine before the Story JavaScript: `State`, `Story`, `Engine`, `setup`, `settings`, `Config`, `Setting`,
/// `Macro`, the story functions (`visited()`, `turns()`, `either()`, `random()`...), SugarCube's additions to
/// the built-in objects (`Array.prototype.random`...), and no-op stand-ins for the browser (jQuery, `document`,
/// `localStorage` kept in memory, timers that never fire). Randomness is one seeded generator (mulberry32)
/// whose state is saved with the reading; `Math.random` is it too. `__pj` holds what the Swift runtime reads
/// and sets (variables, history, passages, the pending `Engine.play`).
enum SugarCubePrelude {
    /// SugarCube's `Scripting.evalJavaScript` (markup/scripting.js): code evaluated by a direct `eval` inside a
    /// function, so its declarations are its own and not globals; outside the prelude's strict mode, as
    /// SugarCube's is.
    static let evalJavaScript = #"""
__pj.evalJS = function (code, output) {
  return (function (code, output, SCRIPT$DATA$) { return eval(code); }).call(output ? { output: output } : null, String(code), output);
};
"""#

    static let source = #"""
(function (g) {
  "use strict";
  var pj = { vars: {}, temps: {}, history: [], passages: {}, rng: 1, gotoTarget: null, goBack: 0, out: null, macros: {}, notes: [] };
  g.__pj = pj;
  function noop() {}
  // The seeded generator (mulberry32): Math.random, either(), random(); its state is saved with the reading.
  function unit() {
    pj.rng = (pj.rng + 0x6D2B79F5) | 0;
    var t = pj.rng;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  Math.random = unit;
  // Look-only browser objects: every call is accepted and does nothing.
  var jq = {};
  var chain = function () { return jq; };
  ["on", "off", "one", "trigger", "addClass", "removeClass", "toggleClass", "css", "attr", "removeAttr", "prop", "html",
   "text", "append", "prepend", "appendTo", "prependTo", "remove", "empty", "hide", "show", "fadeIn", "fadeOut", "fadeTo",
   "animate", "find", "children", "parent", "parents", "each", "wiki", "click", "val", "data", "ariaClick", "ariaDisabled",
   "insertAfter", "insertBefore", "after", "before", "focus", "blur", "delay", "stop", "first", "last", "eq", "filter",
   "not", "closest", "replaceWith", "wrap", "toggle", "slideUp", "slideDown", "slideToggle", "keyup", "keydown", "keypress",
   "change", "ready", "load", "submit", "hover", "mouseenter", "mouseleave", "scrollTop", "width", "height", "offset",
   "siblings", "next", "prev", "clone", "detach", "queue", "dequeue", "promise", "done", "addBack", "end", "has", "is",
   "index", "get", "toArray", "map", "resize", "scroll", "unwrap", "wrapInner", "innerHeight", "outerHeight"
  ].forEach(function (name) { jq[name] = chain; });
  jq.length = 0;
  // A small DOM for custom macros that build elements (`document.createElement`, `$('<span>')`, `.wiki()`,
  // `.append()`, `.appendTo(this.output)`, text nodes): what ends in a macro's output is written as markup
  // (`__pj.markupOf`), as the browser would show it; an element built and put elsewhere shows nothing.
  var voidTags = { AREA: 1, BR: 1, COL: 1, EMBED: 1, HR: 1, IMG: 1, INPUT: 1, LINK: 1, META: 1, SOURCE: 1, TRACK: 1, WBR: 1 };
  // Elements that begin a block: markup wikified into one (`$(div).wiki("|a|b|")`) begins at the start of a
  // line there and ends at the end of one, as SugarCube wikifies it into the element of its own (a table's
  // rows, a list, a heading).
  var blockTags = { DIV: 1, P: 1, SECTION: 1, ARTICLE: 1, BLOCKQUOTE: 1, LI: 1, TD: 1, TH: 1 };
  function PjText(text) { this.nodeType = 3; this.nodeName = "#text"; this.data = String(text); this.parentNode = null; }
  Object.defineProperty(PjText.prototype, "textContent", { get: function () { return this.data; }, set: function (v) { this.data = String(v); } });
  PjText.prototype.remove = function () { detach(this); };
  function PjMarkup(markup) { this.nodeType = 0; this.markup = String(markup); this.parentNode = null; }
  function PjNode(tag) {
    this.tagName = tag ? String(tag).toUpperCase() : "";
    this.nodeName = this.tagName || "#document-fragment";
    this.nodeType = tag ? 1 : 11;
    this.attrs = {}; this.childNodes = []; this.style = {}; this.dataset = {}; this.parentNode = null;
    var self = this;
    function classes() { return (self.attrs["class"] || "").split(/\s+/).filter(Boolean); }
    function setClasses(list) { if (list.length) self.attrs["class"] = list.join(" "); else delete self.attrs["class"]; }
    this.classList = {
      add: function () { var l = classes(); for (var i = 0; i < arguments.length; i++) if (l.indexOf(arguments[i]) < 0) l.push(arguments[i]); setClasses(l); },
      remove: function () { var a = [].slice.call(arguments); setClasses(classes().filter(function (c) { return a.indexOf(c) < 0; })); },
      toggle: function (c) { if (this.contains(c)) { this.remove(c); return false; } this.add(c); return true; },
      contains: function (c) { return classes().indexOf(c) >= 0; }
    };
  }
  function detach(node) {
    var p = node.parentNode;
    if (p) { var i = p.childNodes.indexOf(node); if (i >= 0) p.childNodes.splice(i, 1); node.parentNode = null; }
  }
  function asNode(x) {
    if (x instanceof PjNode || x instanceof PjText || x instanceof PjMarkup) return x;
    if (x instanceof PjQuery) return x[0];
    return x === undefined || x === null ? null : new PjText(x);
  }
  var NP = PjNode.prototype;
  NP.appendChild = function (child) {
    var node = asNode(child);
    if (!node) return child;
    if (node.nodeType === 11) { node.childNodes.slice().forEach(function (c) { this.appendChild(c); }, this); return child; }
    detach(node); node.parentNode = this; this.childNodes.push(node); return child;
  };
  NP.insertBefore = function (child, ref) {
    var node = asNode(child), at = this.childNodes.indexOf(ref);
    if (!node || at < 0) return this.appendChild(child);
    detach(node); node.parentNode = this; this.childNodes.splice(this.childNodes.indexOf(ref), 0, node); return child;
  };
  NP.append = function () { for (var i = 0; i < arguments.length; i++) this.appendChild(arguments[i]); };
  NP.prepend = function () { var first = this.childNodes[0]; for (var i = 0; i < arguments.length; i++) if (first) this.insertBefore(arguments[i], first); else this.appendChild(arguments[i]); };
  NP.removeChild = function (child) { detach(child); return child; };
  NP.remove = function () { detach(this); };
  NP.replaceChildren = function () { this.childNodes.forEach(function (c) { c.parentNode = null; }); this.childNodes = []; this.append.apply(this, arguments); };
  NP.setAttribute = function (name, value) { this.attrs[String(name).toLowerCase()] = String(value); };
  NP.getAttribute = function (name) { var v = this.attrs[String(name).toLowerCase()]; return v === undefined ? null : v; };
  NP.hasAttribute = function (name) { return String(name).toLowerCase() in this.attrs; };
  NP.removeAttribute = function (name) { delete this.attrs[String(name).toLowerCase()]; };
  ["addEventListener", "removeEventListener", "focus", "blur", "click", "dispatchEvent", "scrollIntoView"].forEach(function (n) { NP[n] = noop; });
  NP.querySelector = function () { return null; };
  NP.querySelectorAll = NP.getElementsByTagName = NP.getElementsByClassName = function () { return []; };
  NP.cloneNode = function (deep) {
    var copy = new PjNode(this.tagName);
    for (var k in this.attrs) copy.attrs[k] = this.attrs[k];
    for (var s in this.style) copy.style[s] = this.style[s];
    if (deep) this.childNodes.forEach(function (c) { copy.appendChild(c instanceof PjNode ? c.cloneNode(true) : c instanceof PjText ? new PjText(c.data) : new PjMarkup(c.markup)); });
    return copy;
  };
  Object.defineProperty(NP, "textContent", {
    get: function () { return this.childNodes.map(function (c) { return c instanceof PjMarkup ? c.markup : c.textContent; }).join(""); },
    set: function (v) { this.replaceChildren(new PjText(v)); }
  });
  Object.defineProperty(NP, "innerText", { get: function () { return this.textContent; }, set: function (v) { this.textContent = v; } });
  Object.defineProperty(NP, "innerHTML", { get: function () { return markupOf(this, true); }, set: function (v) { this.replaceChildren(new PjMarkup(v)); } });
  Object.defineProperty(NP, "firstChild", { get: function () { return this.childNodes[0] || null; } });
  Object.defineProperty(NP, "lastChild", { get: function () { return this.childNodes[this.childNodes.length - 1] || null; } });
  Object.defineProperty(NP, "children", { get: function () { return this.childNodes.filter(function (c) { return c instanceof PjNode; }); } });
  ["id", "className", "value", "src", "href", "type", "name", "title"].forEach(function (p) {
    var attr = p === "className" ? "class" : p.toLowerCase();
    Object.defineProperty(NP, p, { get: function () { return this.attrs[attr] || ""; }, set: function (v) { this.attrs[attr] = String(v); } });
  });
  function attributeText(value) { return String(value).replace(/&/g, "&amp;").replace(/"/g, "&quot;"); }
  // A node as the markup the passage would have held: elements as HTML, text as verbatim text, wiki text as written.
  function markupOf(node, inner) {
    if (node instanceof PjMarkup) return node.markup;
    if (node instanceof PjText) return node.data.indexOf('"""') < 0 && node.data.length ? '"""' + node.data + '"""' : node.data;
    var body = node.childNodes.map(function (c) { return markupOf(c); }).join("");
    if (inner || !node.tagName) return body;
    var tag = node.tagName.toLowerCase(), open = "<" + tag;
    var style = [];
    for (var s in node.style) if (node.style[s] !== "" && node.style[s] !== undefined && node.style[s] !== null) style.push(s.replace(/[A-Z]/g, function (c) { return "-" + c.toLowerCase(); }) + ": " + node.style[s]);
    for (var k in node.attrs) if (k !== "style" || !style.length) open += " " + k + '="' + attributeText(node.attrs[k]) + '"';
    if (style.length) open += ' style="' + attributeText(style.join("; ")) + '"';
    if (blockTags[node.tagName] && node.childNodes.length) {
      if (node.childNodes[0] instanceof PjMarkup) body = "\n" + body;
      if (node.childNodes[node.childNodes.length - 1] instanceof PjMarkup && body.slice(-1) !== "\n") body += "\n";
    }
    return voidTags[node.tagName] ? open + ">" : open + ">" + body + "</" + tag + ">";
  }
  pj.markupOf = function (node) { return markupOf(node, true); };
  // jQuery over those nodes (`$(el)`, `$('<span class="x">')`); what it cannot do is a no-op, as the rest of jQuery.
  function PjQuery(nodes) { for (var i = 0; i < nodes.length; i++) this[i] = nodes[i]; this.length = nodes.length; }
  PjQuery.prototype = Object.create(jq);
  var QP = PjQuery.prototype;
  function nodesOf(x) {
    if (x instanceof PjQuery) return [].slice.call(x);
    if (Array.isArray(x)) return x.map(asNode).filter(Boolean);
    if (typeof x === "string") { var made = fromHTML(x); return made ? [made] : [new PjMarkup(x)]; }
    var node = asNode(x);
    return node ? [node] : [];
  }
  QP.each = function (f) { for (var i = 0; i < this.length; i++) f.call(this[i], i, this[i]); return this; };
  QP.get = function (i) { return i === undefined ? [].slice.call(this) : this[i < 0 ? this.length + i : i]; };
  QP.toArray = function () { return [].slice.call(this); };
  QP.first = function () { return new PjQuery(this.length ? [this[0]] : []); };
  QP.last = function () { return new PjQuery(this.length ? [this[this.length - 1]] : []); };
  QP.eq = function (i) { var n = this.get(i); return new PjQuery(n ? [n] : []); };
  QP.wiki = QP.wikiWithOptions = function () {
    var texts = [].slice.call(arguments);
    if (this.wikiWithOptions === QP.wikiWithOptions && texts.length > 1 && typeof texts[0] === "object") texts = texts.slice(1);
    return this.each(function () { var el = this; texts.forEach(function (t) { if (el.appendChild) el.appendChild(new PjMarkup(t)); }); });
  };
  QP.append = function () {
    var items = [].slice.call(arguments);
    return this.each(function (i) { var el = this; if (!el.appendChild) return; items.forEach(function (item) { nodesOf(item).forEach(function (n) { el.appendChild(i === 0 ? n : (n.cloneNode ? n.cloneNode(true) : n)); }); }); });
  };
  QP.prepend = function () {
    var items = [].slice.call(arguments);
    return this.each(function () { var el = this; if (!el.prepend) return; items.forEach(function (item) { nodesOf(item).reverse().forEach(function (n) { el.prepend(n); }); }); });
  };
  QP.appendTo = function (target) { jQuery(target).append(this); return this; };
  QP.prependTo = function (target) { jQuery(target).prepend(this); return this; };
  QP.after = QP.insertAfter = QP.before = QP.insertBefore = function () { return this; };
  QP.text = function (t) {
    if (t === undefined) return this.length && this[0].textContent !== undefined ? this[0].textContent : "";
    return this.each(function () { if (this.replaceChildren) this.replaceChildren(new PjText(typeof t === "function" ? t.call(this) : t)); });
  };
  QP.html = function (h) {
    if (h === undefined) return this.length && this[0] instanceof PjNode ? markupOf(this[0], true) : "";
    return this.each(function () { if (this.replaceChildren) { this.replaceChildren(); nodesOf(h).forEach(function (n) { this.appendChild(n); }, this); } });
  };
  QP.empty = function () { return this.each(function () { if (this.replaceChildren) this.replaceChildren(); }); };
  QP.remove = QP.detach = function () { return this.each(function () { detach(this); }); };
  QP.replaceWith = function (x) { return this.each(function () { var p = this.parentNode; if (p) { nodesOf(x).forEach(function (n) { p.insertBefore(n, this); }, this); detach(this); } }); };
  QP.addClass = function (c) { var l = String(c).split(/\s+/).filter(Boolean); return this.each(function () { if (this.classList) this.classList.add.apply(null, l); }); };
  QP.removeClass = function (c) { var l = c === undefined ? null : String(c).split(/\s+/).filter(Boolean); return this.each(function () { if (!this.classList) return; if (l) this.classList.remove.apply(null, l); else delete this.attrs["class"]; }); };
  QP.toggleClass = function (c) { return this.each(function () { if (this.classList) this.classList.toggle(c); }); };
  QP.hasClass = function (c) { for (var i = 0; i < this.length; i++) if (this[i].classList && this[i].classList.contains(c)) return true; return false; };
  QP.attr = function (name, value) {
    if (typeof name === "string" && value === undefined) return this.length && this[0].getAttribute ? (this[0].getAttribute(name) === null ? undefined : this[0].getAttribute(name)) : undefined;
    var pairs = typeof name === "string" ? [[name, value]] : Object.keys(name || {}).map(function (k) { return [k, name[k]]; });
    return this.each(function () { var el = this; if (el.setAttribute) pairs.forEach(function (p) { if (p[1] === null) el.removeAttribute(p[0]); else el.setAttribute(p[0], p[1]); }); });
  };
  QP.prop = QP.attr;
  QP.removeAttr = function (name) { return this.each(function () { if (this.removeAttribute) this.removeAttribute(name); }); };
  QP.val = function (v) { if (v === undefined) return this.length ? this[0].value : undefined; return this.each(function () { this.value = v; }); };
  QP.css = function (name, value) {
    if (typeof name === "string" && value === undefined) return this.length && this[0].style ? this[0].style[name] : undefined;
    var pairs = typeof name === "string" ? [[name, value]] : Object.keys(name || {}).map(function (k) { return [k, name[k]]; });
    return this.each(function () { var el = this; if (el.style) pairs.forEach(function (p) { el.style[p[0].replace(/-([a-z])/g, function (m, c) { return c.toUpperCase(); })] = p[1]; }); });
  };
  QP.hide = function () { return this.css("display", "none"); };
  QP.show = function () { return this.each(function () { if (this.style && this.style.display === "none") delete this.style.display; }); };
  // An animation is shown as it ends (as `<<timed>>` is shown at once): faded or slid in, the element shows;
  // faded or slid out, it is hidden; toggled, the other of the two. Their completion callbacks are not run.
  QP.fadeIn = QP.slideDown = QP.show;
  QP.fadeOut = QP.slideUp = QP.hide;
  QP.toggle = QP.fadeToggle = QP.slideToggle = function (on) {
    return this.each(function () {
      if (!this.style) return;
      var show = typeof on === "boolean" ? on : this.style.display === "none";
      if (show) { if (this.style.display === "none") delete this.style.display; } else this.style.display = "none";
    });
  };
  QP.children = function () { var out = []; this.each(function () { if (this.children) out = out.concat(this.children); }); return new PjQuery(out); };
  QP.parent = function () { var out = []; this.each(function () { if (this.parentNode) out.push(this.parentNode); }); return new PjQuery(out); };
  QP.find = function () { return new PjQuery([]); };
  QP.is = function () { return false; };
  QP.clone = function () { return new PjQuery(this.toArray().map(function (n) { return n.cloneNode ? n.cloneNode(true) : n; })); };
  // `$('<span class="x">text</span>')`: an element of that tag, its attributes, and what it holds as markup.
  function fromHTML(html) {
    var m = /^\s*<([A-Za-z][\w-]*)((?:\s+[^>]*?)?)\s*\/?>(?:([\s\S]*)<\/\1\s*>)?\s*$/.exec(html);
    if (!m) return null;
    var el = new PjNode(m[1]), re = /([^\s=\/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g, a;
    while ((a = re.exec(m[2] || "")) !== null) el.setAttribute(a[1], a[2] !== undefined ? a[2] : a[3] !== undefined ? a[3] : a[4] !== undefined ? a[4] : "");
    if (m[3]) el.appendChild(new PjMarkup(m[3]));
    return el;
  }
  // The jQuery calls this stand-in does not do keep the chain going (`.on(...)` then `.appendTo(...)`).
  for (var method in jq) if (method !== "length" && !Object.prototype.hasOwnProperty.call(QP, method)) QP[method] = function () { return this; };
  // `$(document).on(":passagestart", f)` and the other events SugarCube fires: kept, and fired by the
  // runtime as a passage is entered and shown (`__pj.fire`).
  var events = {};
  var eventTarget = {};
  for (var key in jq) eventTarget[key] = chain;
  eventTarget.on = eventTarget.one = function (types, a, b) {
    var f = typeof a === "function" ? a : b;
    if (typeof types === "string" && typeof f === "function") types.split(/\s+/).forEach(function (t) { var name = t.split(".")[0]; (events[name] = events[name] || []).push(f); });
    return eventTarget;
  };
  eventTarget.off = function (types) { if (typeof types === "string") types.split(/\s+/).forEach(function (t) { delete events[t.split(".")[0]]; }); return eventTarget; };
  eventTarget.length = 1;
  pj.fire = function (type, name) {
    var list = events[type];
    if (!list) return "";
    var p = passageObject(name);
    var event = { type: type, passage: p, content: element, detail: { passage: p }, preventDefault: noop, stopPropagation: noop };
    var errors = [];
    list.slice().forEach(function (f) { try { f.call(documentStub, event); } catch (e) { errors.push(String(e)); } });
    return errors.join("; ");
  };
  var jQuery = function (x) {
    if (x instanceof PjQuery) return x;
    if (x instanceof PjNode || x instanceof PjText) return new PjQuery([x]);
    if (typeof x === "string" && /^\s*</.test(x)) { var made = fromHTML(x); if (made) return new PjQuery([made]); }
    if (x === documentStub || x === g) return eventTarget;
    if (typeof x === "function") { try { x(jQuery); } catch (e) {} return jq; }
    return jq;
  };
  jQuery.fn = jq; jQuery.noop = noop;
  jQuery.extend = function (target) {
    for (var i = 1; i < arguments.length; i++) { var s = arguments[i]; if (s) for (var k in s) target[k] = s[k]; }
    return target;
  };
  jQuery.each = function (list, f) { if (list) for (var k in list) f.call(list[k], k, list[k]); return list; };
  jQuery.isArray = Array.isArray;
  jQuery.isFunction = function (f) { return typeof f === "function"; };
  jQuery.isPlainObject = function (o) { return o !== null && typeof o === "object" && Object.getPrototypeOf(o) === Object.prototype; };
  // SugarCube's `jQuery.wiki(sources...)`: wikified for what it does, its output thrown away (in a custom
  // macro's handler: run after it, inside `<<silently>>`; elsewhere nothing).
  jQuery.wiki = function () {
    var place = pj.wikiPlace;
    if (!place) return;
    for (var i = 0; i < arguments.length; i++) place.appendChild(new PjMarkup("<<silently>>" + String(arguments[i]) + "<</silently>>"));
  };
  jQuery.event = { trigger: noop }; jQuery.ajax = noop; jQuery.getScript = noop; jQuery.Deferred = function () { return jq; };
  g.jQuery = g.$ = jQuery;
  var element = {};
  var elementOf = function () { return element; };
  ["appendChild", "removeChild", "setAttribute", "removeAttribute", "addEventListener", "removeEventListener", "insertBefore",
   "append", "prepend", "remove", "focus", "blur", "click", "dispatchEvent", "replaceChildren"].forEach(function (name) { element[name] = elementOf; });
  element.classList = { add: noop, remove: noop, toggle: noop, contains: function () { return false; } };
  element.style = {}; element.dataset = {}; element.children = []; element.childNodes = [];
  element.getAttribute = function () { return null; };
  element.querySelector = function () { return null; };
  element.querySelectorAll = function () { return []; };
  element.getElementsByTagName = element.getElementsByClassName = element.querySelectorAll;
  var documentStub = {
    body: element, head: element, documentElement: element,
    getElementById: elementOf, querySelector: function () { return null; },
    querySelectorAll: function () { return []; }, getElementsByTagName: function () { return []; },
    getElementsByClassName: function () { return []; },
    createElement: function (tag) { return new PjNode(tag || "span"); }, createTextNode: function (text) { return new PjText(text); },
    createDocumentFragment: function () { return new PjNode(""); }, addEventListener: noop, removeEventListener: noop, title: ""
  };
  documentStub.location = { href: "", hash: "", reload: noop };
  g.document = documentStub;
  g.window = g;
  g.addEventListener = g.removeEventListener = noop;
  g.setTimeout = g.setInterval = function () { return 0; };
  g.clearTimeout = g.clearInterval = noop;
  g.requestAnimationFrame = function () { return 0; };
  var memory = {};
  g.localStorage = g.sessionStorage = {
    getItem: function (k) { return Object.prototype.hasOwnProperty.call(memory, k) ? memory[k] : null; },
    setItem: function (k, v) { memory[k] = String(v); }, removeItem: function (k) { delete memory[k]; }, clear: function () { memory = {}; }
  };
  g.console = { log: noop, warn: noop, error: noop, info: noop, debug: noop };
  g.alert = noop; g.prompt = function () { return null; }; g.confirm = function () { return false; };
  g.navigator = { userAgent: "Pajama" }; g.location = { href: "", hash: "", reload: noop };

  // SugarCube's API (docs/sugarcube.md, "Story JavaScript").
  function current() { return pj.history.length ? pj.history[pj.history.length - 1] : ""; }
  function count(name) { var n = 0; for (var i = 0; i < pj.history.length; i++) if (pj.history[i] === name) n++; return n; }
  var State = {
    get variables() { return pj.vars; },
    get temporary() { return pj.temps; },
    get turns() { return pj.history.length; },
    get passage() { return current(); },
    get passages() { return pj.history.slice(); },
    get activeIndex() { return pj.history.length - 1; },
    isEmpty: function () { return pj.history.length === 0; },
    get length() { return pj.history.length; },
    get size() { return pj.history.length; },
    get active() { return { title: current(), variables: pj.vars }; },
    get current() { return { title: current(), variables: pj.vars }; },
    hasPlayed: function (name) { return count(name) > 0; },
    // state.js `variableGet`/`variableSet`: the TwineScript expression (`$player.age`, `_list[0]`) evaluated.
    getVar: function (expression) { try { return (0, eval)(varScript(expression)); } catch (e) { return undefined; } },
    setVar: function (expression, value) { try { pj.setValue = value; (0, eval)(varScript(expression) + " = __pj.setValue"); return true; } catch (e) { return false; } finally { delete pj.setValue; } },
    random: unit, prng: { init: noop, get isEnabled() { return true; } }, initPRNG: noop,
    metadata: { _m: {}, get: function (k) { return this._m[k]; }, set: function (k, v) { this._m[k] = v; }, has: function (k) { return k in this._m; }, delete: function (k) { delete this._m[k]; }, clear: function () { this._m = {}; } }
  };
  function varScript(expression) {
    return String(expression).replace(/("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')|(^|[^\w$.])([$_])([A-Za-z_$][\w$]*)/g, function (m, quoted, before, sigil, name) {
      return quoted ? quoted : before + (sigil === "$" ? "State.variables." : "State.temporary.") + name;
    });
  }
  g.State = State;
  // SugarCube's scratch object for macros (`<<for>>`'s break, the numberpool set's ids), a new one at each
  // passage (engine.js: `TempState = {}` as the passage is played).
  g.TempState = {};
  g.variables = function () { return pj.vars; };
  g.temporary = function () { return pj.temps; };
  function passageObject(name) {
    var p = pj.passages[name];
    if (!p) return null;
    return { title: name, name: name, tags: p.tags.slice(), text: p.text, domId: "passage-" + name.replace(/\W+/g, "-"),
             processText: function () { return p.text; } };
  }
  g.Story = {
    get title() { return pj.title; }, get name() { return pj.title; }, get ifId() { return pj.ifid; }, domId: "story",
    has: function (name) { return !!pj.passages[name]; }, get: function (name) { return passageObject(name); },
    lookup: function (prop, value) {
      var out = [];
      for (var name in pj.passages) { var p = passageObject(name); var v = p[prop]; if (Array.isArray(v) ? v.indexOf(value) >= 0 : v === value) out.push(p); }
      return out;
    },
    lookupWith: function (f) { var out = []; for (var name in pj.passages) { var p = passageObject(name); if (f(p)) out.push(p); } return out; },
    filter: function (f) { return this.lookupWith(f); }, find: function (f) { return this.lookupWith(f)[0]; }
  };
  g.Engine = {
    play: function (name) { pj.gotoTarget = String(name); }, goTo: function (name) { pj.gotoTarget = String(name); },
    forward: noop, backward: function () { pj.goBack = 1; }, go: function (n) { n = Number(n) | 0; if (n < 0) pj.goBack = -n; },
    restart: function () { pj.restartAsked = true; }, show: noop,
    isIdle: function () { return true; }, state: "idle"
  };
  g.setup = {};
  g.settings = {};
  var configStub = function () {
    return { passages: { nobr: false, start: undefined, descriptions: true, transitionOut: 0, displayTitles: false },
             saves: { autosave: false, slots: 8, isAllowed: null, autoload: false, id: "" }, history: { controls: true, maxStates: 40 },
             ui: { stowBarInitially: false, updateStoryElements: true }, audio: { pauseOnFadeToZero: true, preloadMetadata: true },
             macros: { ifAssignmentError: true, maxLoopIterations: 1000 }, navigation: {}, debug: false, addVisitedLinkClass: false,
             cleanupWikifierOutput: false, loadDelay: 0 };
  };
  g.Config = configStub();
  g.Setting = {
    addHeader: noop, load: noop, save: noop, reset: noop, forEach: noop, isEmpty: function () { return true; },
    addToggle: function (name, def) { if (def && "default" in def) g.settings[name] = def.default; },
    addList: function (name, def) { if (def) g.settings[name] = "default" in def ? def.default : (def.list || [])[0]; },
    addRange: function (name, def) { if (def) g.settings[name] = "default" in def ? def.default : def.min; },
    addValue: function (name, def) { if (def && "default" in def) g.settings[name] = def.default; },
    get: function () { return undefined; }, has: function () { return false; }, delete: noop
  };
  g.Macro = {
    add: function (names, def) { [].concat(names).forEach(function (n) { pj.macros[n] = def; }); },
    has: function (name) { return !!pj.macros[name]; }, get: function (name) { return pj.macros[name] || (pj.legacyMacro(name) ? g.macros[name] : null); },
    delete: function (names) { [].concat(names).forEach(function (n) { delete pj.macros[n]; }); },
    tags: { get: function () { return null; }, has: function () { return false; } }
  };
  var stubs = ["Save", "UI", "UIBar", "Dialog", "LoadScreen", "Fullscreen", "Wikifier", "Scripting", "Browser", "Has", "Passage"];
  var stubObject = function () {
    var o = {};
    ["add", "get", "has", "delete", "open", "close", "setup", "append", "wiki", "restart", "show", "hide", "stow", "unstow",
     "destroy", "update", "lock", "unlock", "save", "load", "clear", "ok", "ask", "isOpen", "body", "addClass", "removeClass",
     "select", "tracks", "groups", "lists", "mute", "stop", "volume", "request", "exit", "parse", "evalJavaScript",
     "evalTwineScript", "onLoad", "onSave", "isEnabled", "ok", "alert", "jumpto", "saves", "settings", "share", "buildSaves"].forEach(function (n) { o[n] = function () { return undefined; }; });
    o.slots = { length: 0, count: function () { return 0; }, has: function () { return false; }, get: function () { return null; }, ok: function () { return false; }, isEmpty: function () { return true; }, save: noop, load: noop, delete: noop };
    o.autosave = { has: function () { return false; }, ok: function () { return false; }, save: noop, load: noop, delete: noop, get: function () { return null; } };
    o.onLoad = { add: noop, delete: noop, clear: noop }; o.onSave = { add: noop, delete: noop, clear: noop };
    o.isMobile = { any: function () { return false; } };
    return o;
  };
  stubs.forEach(function (name) { g[name] = stubObject(); });
  // `Scripting.evalJavaScript(code, output)` runs code as `<<run>>` does (the stories' own `<<live>>` macros).
  g.Scripting.evalJavaScript = function (code, output) { return pj.evalJS(code, output); };
  // SugarCube's `Template` (markup/template.js); `?name` in a passage is `__pj.template(name)`.
  pj.templates = {};
  function validTemplate(t) { return typeof t === "function" || typeof t === "string"; }
  g.Template = {
    add: function (name, template) {
      if (!validTemplate(template) && !(Array.isArray(template) && template.length > 0 && template.every(validTemplate))) {
        throw new TypeError("invalid template type (" + name + "); templates must be: functions, strings, or an array of either");
      }
      [].concat(name).forEach(function (n) {
        if (!/^[A-Za-z][\w-]*$/.test(n)) throw new Error('invalid template name "' + n + '"');
        if (Object.prototype.hasOwnProperty.call(pj.templates, n)) throw new Error("cannot clobber existing template ?" + n);
        pj.templates[n] = template;
      });
    },
    delete: function (names) { [].concat(names).forEach(function (n) { delete pj.templates[n]; }); },
    get: function (name) { return Object.prototype.hasOwnProperty.call(pj.templates, name) ? pj.templates[name] : null; },
    has: function (name) { return Object.prototype.hasOwnProperty.call(pj.templates, name); },
    get size() { return Object.keys(pj.templates).length; }
  };
  function stringFrom(v) {
    switch (typeof v) {
      case "function": return "[function]";
      case "undefined": return "[undefined]";
      case "number": if (v !== v) return "[number NaN]"; break;
      case "symbol": return "[symbol" + (v.description !== undefined ? ' "' + v.description + '"' : "") + "]";
      case "object":
        if (v === null) return "[null]";
        if (Array.isArray(v)) return v.map(stringFrom).join(", ");
        if (v instanceof Set) return Array.from(v).map(stringFrom).join(", ");
        if (v instanceof Map) return "{\u202F" + Array.from(v).map(function (e) { return stringFrom(e[0]) + " \u2192 " + stringFrom(e[1]); }).join(", ") + "\u202F}";
        if (v instanceof Date) return v.toLocaleString();
        break;
    }
    return String(v);
  }
  // `<<cycle>>` and `<<listbox>>` (macro/macros/cycle-listbox.js): the options, the one selected (`selected`,
  // `autoselect`, else the first) set in the variable; its label, or why there is none.
  pj.selectOption = function (varName, entries, autoselect) {
    var options = [], index = -1;
    for (var i = 0; i < entries.length; i++) {
      var e = entries[i];
      if (e.option) {
        var a = e.option;
        if (a.length === 0) return JSON.stringify({ error: "no arguments specified for <<option>> (#" + (options.length + 1) + ")" });
        var option = { label: String(a[0]), value: a.length === 1 || (a.length === 2 && a[1] === "selected") ? a[0] : a[1] };
        options.push(option);
        if ((a.length === 2 && a[1] === "selected") || (a.length > 2 && a[2] === "selected")) {
          if (autoselect) return JSON.stringify({ error: "cannot specify both the autoselect and selected keywords" });
          if (index !== -1) return JSON.stringify({ error: "multiple selected keywords specified for <<option>>" });
          index = options.length - 1;
        }
      } else {
        var r = e.from;
        if (typeof r !== "object" || r === null) return JSON.stringify({ error: "expression must yield a supported collection or generic object (type: " + (r === null ? "null" : typeof r) + ")" });
        if (Array.isArray(r) || r instanceof Set) r.forEach(function (v) { options.push({ label: String(v), value: v }); });
        else if (r instanceof Map) r.forEach(function (v, k) { options.push({ label: String(k), value: v }); });
        else Object.keys(r).forEach(function (k) { options.push({ label: k, value: r[k] }); });
      }
    }
    if (options.length === 0) return JSON.stringify({ error: "no options specified" });
    if (index === -1) {
      if (autoselect) { var cur = State.getVar(varName); index = Math.max(0, options.findIndex(function (o) { return o.value === cur || (o.value !== o.value && cur !== cur); })); }
      else index = 0;
    }
    State.setVar(varName, options[index].value);
    return JSON.stringify({ label: options[index].label });
  };
  pj.template = function (name) {
    var t = Template.get(name);
    if (Array.isArray(t)) t = t.random();
    if (typeof t === "function") { try { return JSON.stringify({ text: stringFrom(t.call({ name: name })) }); } catch (e) { return JSON.stringify({ error: e.message }); } }
    return JSON.stringify(typeof t === "string" ? { text: t } : {});
  };
  // SugarCube's `Util` (lib/deprecated-util.js: its functions as util/*.js define them).
  function typeOf(o) { return o === null ? "null" : typeof o === "object" ? Object.prototype.toString.call(o).slice(8, -1) : typeof o; }
  var entities = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;", "`": "&#96;" };
  var decoded = { "&amp;": "&", "&#38;": "&", "&#x26;": "&", "&lt;": "<", "&#60;": "<", "&#x3c;": "<", "&gt;": ">", "&#62;": ">", "&#x3e;": ">",
    "&quot;": "\"", "&#34;": "\"", "&#x22;": "\"", "&apos;": "'", "&#39;": "'", "&#x27;": "'", "&#96;": "`", "&#x60;": "`" };
  g.Util = {
    fromCssTime: function (t) {
      var m = /^([+-]?(?:\d*\.)?\d+)([Mm]?[Ss])$/.exec(String(t));
      if (m === null) throw new SyntaxError('invalid time value syntax: "' + t + '"');
      var ms = Number(m[1]) * (m[2].length === 1 ? 1000 : 1);
      if (!isFinite(ms)) throw new RangeError('invalid time value: "' + t + '"');
      return ms;
    },
    toCssTime: function (ms) { if (typeof ms !== "number" || !isFinite(ms)) throw new TypeError("invalid milliseconds value: " + ms); return ms + "ms"; },
    fromCssProperty: function (p) { return String(p).replace(/-([a-z])/g, function (m, c) { return c.toUpperCase(); }); },
    slugify: function (str) {
      var base = String(str).trim();
      var legacy = base.replace(/[^\w\s\u2013\u2014-]+/g, "").replace(/[_\s\u2013\u2014-]+/g, "-").toLocaleLowerCase();
      if (!/^-*$/.test(legacy)) return legacy;
      return base.replace(/^\$/, "").replace(/^_/, "-").replace(/[\x00-\x20!-/:-@[-^`{-\x9f]+/g, "");
    },
    escape: function (v) { return v == null ? "" : String(v).replace(/[&<>"'`]/g, function (c) { return entities[c]; }); },
    unescape: function (v) { return v == null ? "" : String(v).replace(/&(?:amp|#38|#x26|lt|#60|#x3c|gt|#62|#x3e|quot|#34|#x22|apos|#39|#x27|#96|#x60);/gi, function (e) { return decoded[e.toLowerCase()]; }); },
    escapeMarkup: function (v) { return v == null ? "" : String(v).replace(/[!"#$&'*\-/<=>?@[\\\]^_`{|}~]/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); },
    toStringTag: function (o) { return Object.prototype.toString.call(o).slice(8, -1); },
    getType: typeOf,
    now: function () { return Date.now(); },
    sameValueZero: function (a, b) { return a === b || (a !== a && b !== b); },
    hasMediaQuery: function () { return false; },
    toEnum: function (o) { return Object.freeze(Object.assign(Object.create(null), o)); },
    scrubEventKey: function (k) { return k; }, sanitizeFilename: function (s) { return String(s).replace(/[\x00-\x1f"*./:<>?\\|\x7f]/g, ""); }
  };
  // SugarCube's localised strings (l10n/strings.js, the ones a story's code reads) and `L10n.get` (l10n/l10n.js).
  g.l10nStrings = { textAbort: "Abort", textAborting: "Aborting", textCancel: "Cancel", textClear: "Clear", textClose: "Close", textDelete: "Delete",
    textExport: "Export", textIdentity: "game", textImport: "Import", textLoad: "Load", textOff: "Off", textOk: "OK", textOn: "On", textSave: "Save",
    textTurn: "Turn", restartTitle: "Restart", restartPrompt: "Are you sure that you want to restart? Unsaved progress will be lost.",
    savesTitle: "Saves", settingsTitle: "Settings", errorTitle: "Error" };
  g.L10n = {
    init: noop,
    get: function (ids, overrides) {
      if (!ids) return "";
      var id = [].concat(ids).filter(function (i) { return Object.prototype.hasOwnProperty.call(g.l10nStrings, i); })[0];
      if (!id) return "";
      var value = g.l10nStrings[id];
      for (var depth = 0; /\{\w+\}/.test(value); depth++) {
        if (depth >= 50) throw new Error("L10n.get exceeded maximum replacement depth, probable infinite loop");
        value = value.replace(/\{\w+\}/g, function (r) { var k = r.slice(1, -1); return overrides && Object.prototype.hasOwnProperty.call(overrides, k) ? overrides[k] : g.l10nStrings[k]; });
      }
      return value;
    }
  };
  // SugarCube's `SimpleAudio` (audio/simpleaudio.js) as a page without sound sees it: tracks, groups and
  // playlists are kept (`<<cacheaudio>>` adds to the same tracks, `__pj.tracks`), and a track never loads,
  // so it never plays (`isPlaying()` false, `duration()` NaN, as a track without data in a browser).
  pj.tracks = {}; pj.groups = {}; pj.lists = {};
  var audioVolume = 1, audioMuted = false;
  function AudioTrack(sources) { this.sources = sources; this._volume = 1; this._mute = false; this._loop = false; this._rate = 1; }
  ["load", "unload", "play", "playWhenAllowed", "pause", "stop", "fade", "fadeIn", "fadeOut", "fadeStop", "skip", "shuffle"].forEach(function (n) { AudioTrack.prototype[n] = function () { return n === "play" || n.indexOf("fade") === 0 ? { then: function () { return this; }, catch: function () { return this; } } : this; }; });
  [["volume", "_volume"], ["mute", "_mute"], ["loop", "_loop"], ["rate", "_rate"]].forEach(function (p) {
    AudioTrack.prototype[p[0]] = function (v) { if (v === undefined) return this[p[1]]; this[p[1]] = p[0] === "mute" || p[0] === "loop" ? !!v : Number(v); return this; };
  });
  AudioTrack.prototype.time = function (t) { return t === undefined ? 0 : this; };
  AudioTrack.prototype.duration = AudioTrack.prototype.remaining = function () { return NaN; };
  ["isPlaying", "isPaused", "isEnded", "isFading", "isSeeking", "isLoading", "isFailed", "hasMetadata", "hasSomeData", "hasData"].forEach(function (n) { AudioTrack.prototype[n] = function () { return false; }; });
  ["isStopped", "isUnloaded", "hasNoData"].forEach(function (n) { AudioTrack.prototype[n] = function () { return true; }; });
  AudioTrack.prototype.isUnavailable = function () { return true; };
  AudioTrack.prototype.hasSource = function () { return this.sources.length > 0; };
  AudioTrack.prototype.isMuted = function () { return this._mute; };
  AudioTrack.prototype.isLooped = function () { return this._loop; };
  AudioTrack.prototype.clone = function () { return new AudioTrack(this.sources.slice()); };
  AudioTrack.prototype.on = AudioTrack.prototype.one = AudioTrack.prototype.off = function () { return this; };
  var trackObjects = {};
  function trackOf(id) {
    if (!Object.prototype.hasOwnProperty.call(pj.tracks, id)) return null;
    var t = trackObjects[id];
    if (!t || t.sources !== pj.tracks[id]) t = trackObjects[id] = new AudioTrack(pj.tracks[id]);
    return t;
  }
  function registry(store, what) {
    return {
      add: function (id) {
        if (arguments.length < 2) throw new Error("no " + (arguments.length < 1 ? what + " ID or " : "") + (what === "group" ? "track IDs" : "sources") + " specified");
        id = String(id).trim();
        if (/[:\s]/.test(id)) throw new Error("invalid " + what + ' ID "' + id + '": ' + what + " IDs must not contain colons or whitespace");
        store[id] = Array.isArray(arguments[1]) ? Array.from(arguments[1]) : [].slice.call(arguments, 1);
      },
      delete: function (id) { var had = Object.prototype.hasOwnProperty.call(store, id); delete store[id]; return had; },
      clear: function () { for (var k in store) delete store[k]; },
      has: function (id) { return Object.prototype.hasOwnProperty.call(store, id); },
      get: function (id) { return store === pj.tracks ? trackOf(id) : (Object.prototype.hasOwnProperty.call(store, id) ? (store === pj.groups ? store[id].slice() : new AudioTrack([])) : null); }
    };
  }
  var runner = new AudioTrack([]);
  g.SimpleAudio = {
    tracks: registry(pj.tracks, "track"), groups: registry(pj.groups, "group"), lists: registry(pj.lists, "playlist"),
    select: function (selector) { if (typeof selector !== "string") throw new Error("SimpleAudio.select selector parameter must be a string"); return runner; },
    load: noop, loadWithScreen: noop, stop: noop, unload: noop, muteOnHidden: noop,
    mute: function (m) { if (m === undefined) return audioMuted; audioMuted = !!m; },
    rate: function (r) { return r === undefined ? 1 : undefined; },
    volume: function (v) { if (v === undefined) return audioVolume; audioVolume = Math.min(Math.max(Number(v), 0), 1); }
  };
  g.macros = {};
  g.version = { title: "SugarCube", major: 2, minor: 37, patch: 3, build: 0, short: function () { return "SugarCube (v2.37.3)"; }, long: function () { return "SugarCube v2.37.3 (Pajama)"; } };
  g.Wikifier = function (place, text) { var node = place instanceof PjQuery ? place[0] : place; if (node instanceof PjNode) node.appendChild(new PjMarkup(text)); };
  g.Wikifier.wikifyEval = function (text) { return String(text); };
  g.Wikifier.Parser = { add: noop, delete: noop, has: function () { return false; }, get: function () { return null; } };
  g.Passage = function () {};
  ["prehistory", "predisplay", "postdisplay", "prerender", "postrender"].forEach(function (name) { g[name] = {}; });
  g.importScripts = g.importStyles = function () { return { then: function (f) { return this; }, catch: function () { return this; } }; };
  g.setPageElement = noop;
  g.memorize = function (k, v) { memory["pj." + k] = JSON.stringify(v); };
  g.recall = function (k, d) { var v = memory["pj." + k]; return v === undefined ? d : JSON.parse(v); };
  g.forget = function (k) { delete memory["pj." + k]; };
  g.clone = function (o) { return o === undefined ? o : JSON.parse(JSON.stringify(o)); };
  g.visited = function () {
    if (arguments.length === 0) return count(current());
    var least = Infinity; for (var i = 0; i < arguments.length; i++) [].concat(arguments[i]).forEach(function (n) { least = Math.min(least, count(n)); });
    return least === Infinity ? 0 : least;
  };
  g.visitedTags = function () {
    var want = [].slice.call(arguments).reduce(function (a, b) { return a.concat(b); }, []);
    var n = 0;
    pj.history.forEach(function (name) { var p = pj.passages[name]; if (p && want.every(function (t) { return p.tags.indexOf(t) >= 0; })) n++; });
    return n;
  };
  // SugarCube's story functions as markup/scripting.js defines them.
  g.hasVisited = function () {
    if (arguments.length === 0) throw new Error("hasVisited called with insufficient parameters");
    var needles = [].concat.apply([], arguments);
    for (var i = 0; i < needles.length; i++) if (pj.history.indexOf(needles[i]) < 0) return false;
    return pj.history.length > 0;
  };
  g.lastVisited = function () {
    if (arguments.length === 0) throw new Error("lastVisited called with insufficient parameters");
    if (pj.history.length === 0) return -1;
    var needles = [].concat.apply([], arguments), last = pj.history.length - 1, turns = pj.history.length;
    for (var i = 0; i < needles.length && turns > -1; i++) { var at = pj.history.lastIndexOf(needles[i]); turns = Math.min(turns, at === -1 ? -1 : last - at); }
    return turns;
  };
  g.turns = function () { return pj.history.length; };
  g.passage = function () { return current(); };
  g.tags = function () {
    var names = arguments.length ? [].slice.call(arguments) : [current()];
    var out = []; names.forEach(function (n) { var p = pj.passages[n]; if (p) out = out.concat(p.tags); }); return out;
  };
  g.previous = function () {
    var h = pj.history;
    if (arguments.length > 0) {
      var offset = Number(arguments[0]);
      if (!Number.isSafeInteger(offset) || offset < 1) throw new RangeError("previous offset parameter must be a positive integer greater than zero");
      return h.length > offset ? h[h.length - 1 - offset] : "";
    }
    for (var i = h.length - 2; i >= 0; i--) if (h[i] !== current()) return h[i];
    return "";
  };
  g.time = function () { return 0; };
  g.either = function () {
    var all = []; for (var i = 0; i < arguments.length; i++) all = all.concat(arguments[i]);
    return all.length ? all[Math.floor(unit() * all.length)] : undefined;
  };
  g.random = function () {
    if (arguments.length === 0) throw new Error("random called with insufficient parameters");
    var lo = arguments.length === 1 ? 0 : Math.trunc(arguments[0]), hi = Math.trunc(arguments[arguments.length === 1 ? 0 : 1]);
    if (!Number.isInteger(lo)) throw new TypeError("random min parameter must be an integer");
    if (!Number.isInteger(hi)) throw new TypeError("random max parameter must be an integer");
    if (lo > hi) { var t = lo; lo = hi; hi = t; }
    return Math.floor(unit() * (hi - lo + 1)) + lo;
  };
  g.randomFloat = function () {
    if (arguments.length === 0) throw new Error("randomFloat called with insufficient parameters");
    var lo = arguments.length === 1 ? 0 : Number(arguments[0]), hi = Number(arguments[arguments.length === 1 ? 0 : 1]);
    if (!isFinite(lo)) throw new TypeError("randomFloat min parameter must be a number");
    if (!isFinite(hi)) throw new TypeError("randomFloat max parameter must be a number");
    if (lo > hi) { var t = lo; lo = hi; hi = t; }
    return unit() * (hi - lo) + lo;
  };
  // SugarCube's extensions of the built-in objects that stories call.
  function define(proto, name, f) { if (!(name in proto)) Object.defineProperty(proto, name, { value: f, configurable: true, writable: true }); }
  var AP = Array.prototype;
  define(AP, "random", function () { return this.length ? this[Math.floor(unit() * this.length)] : undefined; });
  define(AP, "pluck", function () { return this.length ? this.splice(Math.floor(unit() * this.length), 1)[0] : undefined; });
  define(AP, "shuffle", function () { for (var i = this.length - 1; i > 0; i--) { var j = Math.floor(unit() * (i + 1)); var t = this[i]; this[i] = this[j]; this[j] = t; } return this; });
  define(AP, "includes", function (v) { return this.indexOf(v) >= 0; });
  define(AP, "includesAll", function () { var a = [].concat.apply([], arguments), s = this; return a.every(function (v) { return s.indexOf(v) >= 0; }); });
  define(AP, "includesAny", function () { var a = [].concat.apply([], arguments), s = this; return a.some(function (v) { return s.indexOf(v) >= 0; }); });
  define(AP, "count", function (v) { var n = 0; for (var i = 0; i < this.length; i++) if (this[i] === v) n++; return n; });
  define(AP, "delete", function () { var a = [].concat.apply([], arguments), out = []; for (var i = this.length - 1; i >= 0; i--) if (a.indexOf(this[i]) >= 0) out.unshift(this.splice(i, 1)[0]); return out; });
  define(AP, "deleteAt", function () { var a = [].concat.apply([], arguments).sort(function (x, y) { return y - x; }), out = [], s = this; a.forEach(function (i) { out.unshift(s.splice(i, 1)[0]); }); return out; });
  define(AP, "deleteWith", function (f) { var out = []; for (var i = this.length - 1; i >= 0; i--) if (f(this[i])) out.unshift(this.splice(i, 1)[0]); return out; });
  define(AP, "first", function () { return this[0]; });
  define(AP, "last", function () { return this[this.length - 1]; });
  define(AP, "pushUnique", function () { for (var i = 0; i < arguments.length; i++) if (this.indexOf(arguments[i]) < 0) this.push(arguments[i]); return this.length; });
  define(AP, "unshiftUnique", function () { for (var i = 0; i < arguments.length; i++) if (this.indexOf(arguments[i]) < 0) this.unshift(arguments[i]); return this.length; });
  define(AP, "concatUnique", function () { var out = this.slice(); [].concat.apply([], arguments).forEach(function (v) { if (out.indexOf(v) < 0) out.push(v); }); return out; });
  // As SugarCube picks them: distinct indices drawn one by one, a drawn one drawn again.
  define(AP, "randomMany", function (n) {
    var want = Math.min(Math.trunc(n), this.length), seen = {}, out = [];
    while (out.length < want) { var i = Math.floor(unit() * this.length); if (!seen[i]) { seen[i] = true; out.push(this[i]); } }
    return out;
  });
  define(AP, "pluckMany", function (n) { var out = []; while (n-- > 0 && this.length) out.push(this.pluck()); return out; });
  define(Array, "random", function (a) { return AP.random.call(a); });
  define(Math, "clamp", function (n, lo, hi) { return Math.min(Math.max(n, lo), hi); });
  define(Number.prototype, "clamp", function (lo, hi) { return Math.min(Math.max(this, lo), hi); });
  define(String.prototype, "toUpperFirst", function () { return this.charAt(0).toUpperCase() + this.slice(1); });
  define(String.prototype, "toLocaleUpperFirst", function () { return this.charAt(0).toLocaleUpperCase() + this.slice(1); });
  define(String.prototype, "first", function () { return this.charAt(0); });
  define(String.prototype, "last", function () { return this.charAt(this.length - 1); });
  define(String.prototype, "count", function (s) { return s ? this.split(s).length - 1 : 0; });
  define(String, "format", function (f) { var a = [].slice.call(arguments, 1); return String(f).replace(/{(\d+)}/g, function (m, i) { return a[i]; }); });
  // A custom macro's `this`, as MacroContext gives it: its parent is the custom macro whose handler wikified
  // it (the ones Pajama plays itself are no contexts); contextFind is undefined when none matches, as in
  // SugarCube (a `null !== parent && parent.x` then throws there too).
  function contextWalk(self, predicate, thisArg, each) {
    if (typeof predicate !== "function") throw new TypeError("<MacroContext> predicate parameter must be a function");
    for (var c = self.parent; c !== null; c = c.parent) if (predicate.call(thisArg === undefined ? self : thisArg, c) && each(c)) return c;
    return undefined;
  }
  var contextMethods = {
    // `return this.error(...)`: an error in the macro's output (`Error: <<name>>: message`), and false.
    error: function (message) { pj.macroErrors.push({ name: this.displayName, message: String(message) }); return false; },
    createShadowWrapper: function (f) { return f; },
    shadowHandler: function (f) { return f; }, createDebugView: noop, addShadow: noop,
    contextFind: function (p, t) { return contextWalk(this, p, t, function () { return true; }); },
    contextFilter: function (p, t) { var out = []; contextWalk(this, p, t, function (c) { out.push(c); return false; }); return out; },
    contextSome: function (p, t) { return contextWalk(this, p, t, function () { return true; }) !== undefined; },
    contextHas: function (p, t) { return this.contextSome(p, t); },
    contextSelect: function (p, t) { return this.contextFind(p, t); },
    contextSelectAll: function (p, t) { return this.contextFilter(p, t); }
  };
  pj.contexts = [];
  // Host hooks (Swift calls these; see SugarCubeScript.swift).
  // `children`: the payloads of its child tags after the first (`{ name, args, contents }`), as SugarCube's.
  pj.callMacro = function (name, args, raw, contents, full, children) {
    var def = pj.macros[name];
    // A macro of SugarCube 1's API in the `macros` object (`macros.x = { handler(place, name, params, parser) }`),
    // which SugarCube 2 still calls so when `Macro` has none of the name.
    var legacy = !def && pj.legacyMacro(name);
    if (legacy) def = g.macros[name];
    args.raw = raw; args.full = full;
    var place = new PjNode("");
    var parent = pj.contexts.length ? pj.contexts[pj.contexts.length - 1] : null;
    var context = Object.create(contextMethods);
    context.name = name; context.displayName = name; context.args = args; context.output = place; context.parent = parent;
    context.parser = {}; context.self = def; context.payload = [{ name: name, args: args, contents: contents || "" }].concat(children || []);
    var outer = pj.wikiPlace;
    pj.wikiPlace = place;
    // The context stays the parent of the macros in its output until Swift has rendered it (`endMacro`).
    pj.contexts.push(context);
    var outerErrors = pj.macroErrors;
    pj.macroErrors = [];
    try {
      if (legacy) def.handler(place, name, args, context.parser, context.payload); else def.handler.call(context);
    } catch (e) { pj.contexts.pop(); throw e; } finally { pj.wikiPlace = outer; }
    var errors = pj.macroErrors;
    pj.macroErrors = outerErrors;
    return JSON.stringify({ markup: markupOf(place, true), errors: errors });
  };
  pj.macroErrors = [];
  pj.endMacro = function () { pj.contexts.pop(); return 0; };
  pj.legacyMacro = function (name) {
    return Object.prototype.hasOwnProperty.call(g.macros, name) && !!g.macros[name] && typeof g.macros[name].handler === "function";
  };
  pj.isContainer = function (name) { var d = pj.macros[name]; return !!(d && (d.tags || d.skipArgs === undefined && d.isWidget)); };
  pj.evalText = function (code, raw) {
    try {
      var r = (0, eval)(code);
      if (r === null || r === undefined || typeof r === "function") return raw;
      r = String(r);
      return /^(?:\[object [A-Z][a-z]+\]|)$/.test(r) ? raw : r;
    } catch (e) { return raw; }
  };
  pj.evalPassageId = function (code, raw) { return pj.passages[raw] ? raw : pj.evalText(code, raw); };
  pj.isNothing = function (v) { return v === undefined || v === null; };
  pj.entries = function (c) {
    if (c === null || c === undefined) throw new Error("cannot iterate over " + c);
    if (typeof c === "number") { var n = []; for (var i = 0; i < c; i++) n.push([i, i]); return n; }
    if (typeof c === "string") return Array.from(c).map(function (ch, i) { return [i, ch]; });
    if (Array.isArray(c)) return c.map(function (v, i) { return [i, v]; });
    if (typeof Map !== "undefined" && c instanceof Map) return Array.from(c.entries());
    if (typeof Set !== "undefined" && c instanceof Set) return Array.from(c).map(function (v) { return [v, v]; });
    if (typeof c === "object") return Object.keys(c).map(function (k) { return [k, c[k]]; });
    throw new Error("cannot iterate over a " + typeof c);
  };
  pj.ranges = []; pj.switches = []; pj.argStack = [];
  // A value as `<<print>>` and a naked variable write it: SugarCube's `stringFrom` (`[undefined]`, `a, b`).
  pj.print = stringFrom;
  // What the Story JavaScript sees of SugarCube's own scope (it is evaluated inside it): `toStringOrDefault`
  // (deprecated: `stringFrom`), `stringFrom`, and Babel's `_typeof`.
  g.stringFrom = stringFrom;
  g.toStringOrDefault = function (v) { return stringFrom(v); };
  g._typeof = function (v) { return typeof v; };
  pj.save = function () { return JSON.stringify({ v: pj.vars, t: pj.temps, r: pj.rng, m: pj.moments }); };
  pj.load = function (json) { var s = JSON.parse(json); pj.vars = s.v || {}; pj.temps = s.t || {}; pj.rng = s.r | 0; pj.moments = s.m || []; };
  // SugarCube's history of moments: the variables as each passage of the history was entered (the last
  // `maxMoments`, as Config.history.maxStates keeps them). Going `back` moments back takes that moment's
  // variables again, as SugarCube's history navigation does; going forward notes the new one.
  pj.moments = [];
  pj.maxMoments = 40;
  pj.enterMoment = function (back) {
    if (back > 0) {
      if (pj.moments.length > back) pj.vars = JSON.parse(pj.moments[pj.moments.length - 1 - back]);
      pj.moments.length = Math.max(0, pj.moments.length - back - 1);
    }
    pj.moments.push(JSON.stringify(pj.vars));
    if (pj.moments.length > pj.maxMoments) pj.moments.splice(0, pj.moments.length - pj.maxMoments);
  };
  pj.json = function (v) { return JSON.stringify(v === undefined ? null : v, function (k, x) { return x === undefined ? null : (typeof x === "function" ? String(x) : x); }); };
})(this);
"""#
}
