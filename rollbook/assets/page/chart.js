// @ts-check
// A roll's exact distribution as a small bar chart: one bar per total (or per range of
// totals when there are many), each with its percentage as text for screen readers.

import { numberText, t } from "./i18n.js";
import { el } from "./dom.js";
import { percentText, ratio } from "./numbers.js";

const MAX_BARS = 40;

/**
 * Group [[value, "p/q"], ...] (sorted) into at most MAX_BARS bars: [{label, share}].
 * @param {import("./protocol.js").OddsReply["distribution"]} distribution
 * @returns {Array<{label: string, share: number}>}
 */
export function bars(distribution) {
  const points = distribution.map(([value, pq]) => ({ value, share: ratio(pq) }));
  if (points.length <= MAX_BARS) return points.map((p) => ({ label: numberText(p.value), share: p.share }));
  const size = Math.ceil(points.length / MAX_BARS);
  const out = [];
  for (let i = 0; i < points.length; i += size) {
    const group = points.slice(i, i + size);
    const first = group[0].value;
    const last = group[group.length - 1].value;
    out.push({
      label: first === last ? numberText(first) : `${numberText(first)}–${numberText(last)}`,
      share: group.reduce((sum, p) => sum + p.share, 0),
    });
  }
  return out;
}

/**
 * A bar's share: one decimal from 10% up, two below (small bars differ in the second).
 * @param {number} share
 */
function percent(share) {
  return percentText(share, { digits: share * 100 >= 10 ? 1 : 2, floor: false });
}

/**
 * The chart of an `odds` reply ({min, max, mean, distribution}) for `notation`.
 * @param {string} notation
 * @param {import("./protocol.js").OddsReply} reply
 */
export function chart(notation, reply) {
  const list = bars(reply.distribution || []);
  const tallest = Math.max(...list.map((b) => b.share), 0) || 1;
  const mean = Number.isFinite(ratio(reply.mean)) ? String(Number(ratio(reply.mean).toFixed(2))) : reply.mean;
  const figure = el("figure", { class: "rb-chart" });
  figure.append(
    el(
      "figcaption",
      {},
      t("chart.caption", {
        roll: notation,
        mean: numberText(mean),
        min: numberText(reply.min),
        max: numberText(reply.max),
      }),
    ),
  );
  const ol = el("ol", { class: "rb-chart-bars" });
  for (const bar of list) {
    const item = el("li", {
      class: "rb-chart-bar",
      "data-rb-value": bar.label,
      "data-rb-percent": String(bar.share * 100),
      title: `${bar.label}: ${percent(bar.share)}`,
    });
    const fill = el("span", { class: "rb-chart-fill", "aria-hidden": "true" });
    fill.style.blockSize = `${(bar.share / tallest) * 100}%`;
    item.append(
      fill,
      el("span", { class: "rb-chart-label" }, bar.label),
      el("span", { class: "rb-sr-only" }, `: ${percent(bar.share)}`),
    );
    ol.append(item);
  }
  figure.append(ol);
  return figure;
}
