// Keeps a hall page live without reloading it: the hall sends a table's card (server-sent events) each time the
// table changes; it replaces the card of the same id, or takes its place among the cards by name.
"use strict";
// Pages without live cards (players, league) have no events to follow.
const source = document.body.dataset.events ? new EventSource(document.body.dataset.events) : null;
source?.addEventListener("table", (event) => {
  const template = document.createElement("template");
  template.innerHTML = event.data;
  const card = template.content.firstElementChild;
  const shown = document.getElementById(card.id);
  if (shown) {
    shown.replaceWith(card);
    return;
  }
  const cards = document.getElementById("tables");
  cards.insertBefore(card, [...cards.querySelectorAll("section.table")].find((other) => other.id > card.id) || null);
  document.getElementById("none")?.remove();
});
source?.addEventListener("open", () => document.body.classList.remove("stale"));
source?.addEventListener("error", () => document.body.classList.add("stale"));
// The field a page puts the cursor in (the staff page's refused one) has its text selected: what is typed next, as a
// USB reader types a card's UID, replaces it instead of joining it.
document.querySelector("input[autofocus]")?.select();
