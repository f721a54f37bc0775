// Inline formulas break at the end of a line where TeX breaks them (tools/extensions/
// inline_math_breaks.py adds this script, inline, to every page with mathematics).
//
// MathJax 3 cannot break a formula itself. book/_static/custom.css lets the browser break
// inline formulas (a long one would otherwise overflow a phone's column), but the browser
// breaks between any two of MathJax's pieces: "Ci(" at the end of a line and "x)" on the next,
// or "L" and "d" of the product Ld. This groups each inline formula's top-level pieces into
// runs that end after a relation (=, <, \in, ...), a binary operator (+, -, \times, ...) or a
// comma, the places TeX breaks a formula in a paragraph, and custom.css keeps each run on one
// line. A relation or binary operator counts when MathJax spaces it as one (its `space`
// attribute: "4", a thick space, before a relation; "3", a medium one, before an operator): a
// minus sign that starts a formula or follows "=" is a sign, spaced as a letter, and TeX does
// not break after it (tests/test_pages.py checks every break against MathJax's own classes of
// the pieces). A Chinese colon or semicolon after a formula is kept on its line too.
// MathJax runs this on each formula once it is typeset (a render action after `update`, which
// puts the formula into the page); with ui/lazy, MathJax's options take no new render action,
// so it is added to the document in startup.ready.
(function () {
  if (!window.MathJax) return;
  var RELATIONS = "=<>:≤≥≠≈≡∼≃≅≪≫∝∈∉∋⊂⊃⊆⊇→←↔↦⇒⇔⊥∥∣";
  var OPERATORS = "+−±∓×⋅∗∘∙⊕⊗∪∩∧∨∖";
  var PUNCTUATION = ",;";
  function breaksAfter(piece) {
    if (piece.tagName !== "MJX-MO") return false;
    var glyphs = piece.querySelectorAll("mjx-c");
    var code = glyphs.length && glyphs[glyphs.length - 1].className.match(/mjx-c([0-9A-F]+)/);
    if (!code) return false;
    var symbol = String.fromCodePoint(parseInt(code[1], 16));
    var space = piece.getAttribute("space");
    return PUNCTUATION.indexOf(symbol) >= 0 ||
      (RELATIONS.indexOf(symbol) >= 0 && space === "4") ||
      (OPERATORS.indexOf(symbol) >= 0 && space === "3");
  }
  function group(math) {
    var top = !math.display && math.typesetRoot &&
      math.typesetRoot.querySelector(":scope > mjx-math");
    if (!top || top.querySelector(":scope > mjx-break-group")) return;
    var run = null;
    Array.prototype.slice.call(top.children).forEach(function (piece) {
      if (run === null) {
        run = document.createElement("mjx-break-group");
        top.insertBefore(run, piece);
      }
      run.appendChild(piece);
      if (breaksAfter(piece)) run = null;
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
