// Two of the page's controls, finished (tests/test_browser.py clicks both).
//
// 1. A drawer (the chapter list, or the page's contents on a phone or a tablet: the theme's
//    <dialog> elements) closes when the reader picks a place on this page in it; it stayed
//    open over the text it had just scrolled to.
// 2. The link to this page in the other edition (book/_templates/edition-switch.html) leads to
//    the section the reader is in: the one the address names, or else the last one whose
//    heading has scrolled past the top of the window. Both editions give a section the same id.
(function () {
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("dialog[open] a[href]");
    if (link && link.hash && link.pathname === location.pathname) {
      link.closest("dialog").close();
    }
  });

  var HEADER = 80;  // px: a heading above this line has been read past
  function currentSection() {
    if (location.hash.length > 1) return decodeURIComponent(location.hash.slice(1));
    var found = "";
    var sections = document.querySelectorAll("article.bd-article section[id]");
    for (var i = 0; i < sections.length; i++) {
      if (sections[i].getBoundingClientRect().top > HEADER) break;
      found = sections[i].id;
    }
    // the page's own top section is the page itself: no anchor
    return found && found !== sections[0].id ? found : "";
  }
  function aim(switchLink) {
    var id = currentSection();
    switchLink.href = switchLink.href.split("#")[0] + (id ? "#" + encodeURIComponent(id) : "");
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("a.posenc-edition-switch").forEach(function (switchLink) {
      // set before the browser follows the link (a click, a middle click, the keyboard)
      ["pointerdown", "focus", "click"].forEach(function (type) {
        switchLink.addEventListener(type, function () { aim(switchLink); });
      });
    });
  });
})();
