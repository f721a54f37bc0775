// Sphinx 7.4's search excerpts, for this theme and for formulas (tools/extensions/
// sphinx_patches.py adds this script to each edition's search page, which says why).
//
// 1. searchtools.js takes a page's text from [role="main"], which in this theme also holds the
//    header's buttons ("中文", ".ipynb", ".pdf"), the contents printed on paper and the footer:
//    the text is taken from the article.
// 2. A formula is TeX in the page's HTML ("\(x\theta_i\)"), typeset in the browser: an excerpt
//    leaves out a formula its ends cut, and MathJax typesets the others.
// Set before searchtools.js starts the search (its own DOMContentLoaded listener comes later).
document.addEventListener("DOMContentLoaded", function () {
  if (typeof Search === "undefined") return;
  Search.htmlToText = function (htmlString, anchor) {
    var page = new DOMParser().parseFromString(htmlString, "text/html");
    var article = page.querySelector("article.bd-article");
    if (!article) return "";
    var part = (anchor && article.querySelector(anchor)) || article;
    part.querySelectorAll(".headerlink, script, style").forEach(function (el) { el.remove(); });
    return part.textContent.replace(/\s+/g, " ");
  };
  function leaveOutCutFormulas(text) {
    var open = text.search(/\\[(\[]/), close = text.search(/\\[)\]]/);
    if (close >= 0 && (open < 0 || close < open)) text = "…" + text.slice(close + 2);
    var lastOpen = Math.max(text.lastIndexOf("\\("), text.lastIndexOf("\\["));
    var lastClose = Math.max(text.lastIndexOf("\\)"), text.lastIndexOf("\\]"));
    if (lastOpen > lastClose) text = text.slice(0, lastOpen) + "…";
    return text;
  }
  var makeSearchSummary = Search.makeSearchSummary;
  Search.makeSearchSummary = function (htmlText, keywords, anchor) {
    var summary = makeSearchSummary(htmlText, keywords, anchor);
    if (!summary) return summary;
    summary.textContent = leaveOutCutFormulas(summary.textContent);
    // once Sphinx has put it into the page and marked the words searched for
    setTimeout(function () {
      if (window.MathJax && MathJax.typesetPromise) MathJax.typesetPromise([summary]);
    }, 0);
    return summary;
  };
});
