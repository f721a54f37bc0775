// Inline formulas break at the end of a line where TeX breaks them (tools/extensions/
// inline_math_breaks.py adds this script, inline, to every page with mathematics).
//
// MathJax 3 cannot break a formula itself. book/_static/custom.css lets the browser break
// inline formulas (a long one would otherwise overflow a phone's column), but the browser
// breaks between any two of MathJax's pieces: "Ci(" at the end of a line and "x)" on the next,
// or "L" and "d" of the product Ld. This groups each inline formula's top-level pieces into
// runs that end after a relation (=, <, \in, ...), a binary operator (+, -, \times, ...) or a
// comma, the places TeX breaks a formula in a paragraph, and custom.css keeps each run on one
// line. What a piece is comes from MathJax's own TeX class of it (the node of the formula's
// tree that the piece shows): a minus sign that starts a formula or follows "=" is a sign, of
// class ORD, and TeX does not break after it. Nor does a formula break inside brackets that
// hold a few pieces ("f(q, m)", "(x_m, x_n)", "|a + b|": up to LONG): a phone broke "f(q," /
// "m)" at the comma, where TeX never breaks. Brackets around a longer expression or list (a
// bound inside |...|, a vector's coordinates) may break after their operators and commas, as
// TeX would after their operators: kept whole, they ran past a phone's column.
// tests/test_pages.py checks every break against the same classes and rule. A Chinese colon
// or semicolon after a formula is kept on its line too.
// MathJax runs this on each formula once it is typeset (a render action after `update`, which
// puts the formula into the page); with ui/lazy, MathJax's options take no new render action,
// so it is added to the document in startup.ready.
(function () {
  if (!window.MathJax) return;
  // MathJax's TeX classes (TEXCLASS of its MmlNode)
  var BIN = 2, REL = 3, OPEN = 4, CLOSE = 5, PUNCT = 6;
  var BARS = "|\u2016";  // | and ‖: the same sign opens and closes
  var LONG = 12;  // pieces between two brackets, beyond which the brackets may break inside
  // the top-level nodes of a formula's tree, one for each top-level piece on the page
  function topNodes(math) {
    var nodes = math.root.childNodes[0].childNodes;
    if (nodes.length === 1 && nodes[0].isInferred) nodes = nodes[0].childNodes;
    return nodes;
  }
  function barOf(node) {
    var core = node.isEmbellished ? node.coreMO() : null;
    var text = core && core.getText ? core.getText() : "";
    return BARS.indexOf(text) >= 0 && text.length === 1 ? text : null;
  }
  function group(math) {
    var top = !math.display && math.typesetRoot &&
      math.typesetRoot.querySelector(":scope > mjx-math");
    if (!top || top.querySelector(":scope > mjx-break-group")) return;
    var pieces = Array.prototype.slice.call(top.children);
    var nodes = topNodes(math);
    if (nodes.length !== pieces.length) return;  // not expected; the check in tests/ says so
    // the innermost bracket around each piece, and how many pieces each pair of brackets holds
    var inside = [], open = [], holds = {}, openBars = {};
    nodes.forEach(function (node, k) {
      var bar = barOf(node);
      var closes = open.length > 0 && (bar ? openBars[bar] : node.texClass === CLOSE);
      var opens = !closes && (bar ? !openBars[bar] : node.texClass === OPEN);
      if (closes) {
        var start = open.pop();
        holds[start] = k - start - 1;
      }
      inside.push(open.length ? open[open.length - 1] : -1);
      if (opens) open.push(k);
      if (bar) openBars[bar] = opens;
    });
    open.forEach(function (start) { holds[start] = nodes.length - start - 1; });
    var run = null;
    pieces.forEach(function (piece, k) {
      var texClass = nodes[k].texClass;
      if (run === null) {
        run = document.createElement("mjx-break-group");
        top.insertBefore(run, piece);
      }
      run.appendChild(piece);
      if ((texClass === REL || texClass === BIN || texClass === PUNCT) &&
          (inside[k] < 0 || holds[inside[k]] > LONG)) {
        run = null;
      }
    });
    // MathJax puts the space between two pieces on the left of the second one (its `space`
    // attribute, or a margin). After a break that space would indent the next line; TeX drops
    // it there. So the space in front of a run goes to the end of the run before it (MathJax's
    // own `rspace`, or a margin), where a line that ends there does not show it.
    Array.prototype.slice.call(top.children, 1).forEach(function (next) {
      var first = next.firstElementChild, end = next.previousElementSibling.lastElementChild;
      if (end.getAttribute("rspace") || end.style.marginRight) return;
      if (first.getAttribute("space")) {
        end.setAttribute("rspace", first.getAttribute("space"));
        first.removeAttribute("space");
      } else if (first.style.marginLeft) {
        end.style.marginRight = first.style.marginLeft;
        first.style.marginLeft = "";
      }
    });
    // A full-width colon or semicolon may not start a line of Chinese, but after a formula
    // the browser breaks before it; a word joiner keeps it on the formula's line.
    var after = math.typesetRoot.parentNode.nextSibling;
    if (after && after.nodeType === 3 && /^[：；]/.test(after.data)) {
      after.data = "\u2060" + after.data;
    }
  }
  var startup = (MathJax.startup = MathJax.startup || {});
  startup.ready = function () {
    MathJax.startup.defaultReady();
    MathJax.startup.document.addRenderAction("posencInlineBreaks", 202, function (doc) {
      for (var math of doc.math) group(math);
    }, group);
  };
})();
