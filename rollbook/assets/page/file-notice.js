// @ts-check
// A classic script, not a module: browsers load neither module scripts nor workers in a page
// opened from a file (file://), so rollbook.js never runs there. This says so in one
// sentence above the page's first roll and turns the roll buttons off; everything written
// on the page (tables, their chances) stays as the build rendered it.
(() => {
  if (location.protocol !== "file:") return;
  const SENTENCE =
    "The dice on this page cannot roll because it was opened as a file (file://), where " +
    "browsers block the scripts that roll them: open the site from a web server instead, " +
    "for example by running `python3 -m http.server` in its folder and visiting " +
    "http://localhost:8000/.";
  const say = () => {
    if (document.querySelector(".rb-file-notice")) return;
    const first = document.querySelector(".rb-inline, .rb-table, .rb-combat, .rb-statblock, [data-rb-gm]");
    if (!first) return;
    const note = document.createElement("p");
    note.className = "rb-file-notice";
    note.setAttribute("role", "note");
    note.textContent = SENTENCE;
    const article = first.closest("article") || document.body;
    article.insertBefore(note, article.firstChild);
    const buttons = document.querySelectorAll("button.rb-roll");
    for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (buttons)) {
      button.disabled = true;
      button.title = "Dice do not roll in a page opened as a file";
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", say);
  else say();
})();
