// A hand-rolled SVG bar chart: one panel per scenario, one horizontal bar per server showing
// median req/s, labelled with the value and the ratio to raw node:http. No chart library.

const palette = { 'node:http (raw)': '#6b7280', Kiln: '#d9480f' };
const otherColour = '#4c6ef5';

function escapeXml(text) {
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** panels: [{ title, rows: [{ server, rps, ratio }] }] */
export function barChartSvg(panels, { title }) {
  const labelWidth = 210;
  const barArea = 330;
  const valueWidth = 130;
  const width = labelWidth + barArea + valueWidth;
  const barHeight = 16;
  const gap = 6;
  const panelGap = 34;
  const top = 44;
  let y = top;
  const parts = [];
  const scale = Math.max(1, ...panels.flatMap((panel) => panel.rows.map((row) => row.rps)));
  for (const panel of panels) {
    parts.push(`<text x="10" y="${y}" class="panel">${escapeXml(panel.title)}</text>`);
    y += 10;
    for (const row of panel.rows) {
      const length = Math.max(1, (row.rps / scale) * barArea);
      const colour = palette[row.server] ?? otherColour;
      const ratio = Number.isFinite(row.ratio) ? ` (${row.ratio.toFixed(2)}×)` : '';
      parts.push(
        `<text x="${labelWidth - 8}" y="${y + barHeight - 4}" class="label" text-anchor="end">${escapeXml(row.server)}</text>`,
        `<rect x="${labelWidth}" y="${y}" width="${length.toFixed(1)}" height="${barHeight}" fill="${colour}" rx="2"/>`,
        `<text x="${(labelWidth + length + 6).toFixed(1)}" y="${y + barHeight - 4}" class="value">${Math.round(row.rps).toLocaleString('en-US')}${ratio}</text>`,
      );
      y += barHeight + gap;
    }
    y += panelGap - gap;
  }
  const height = y - panelGap + 30;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif">
<style>.title{font-size:15px;font-weight:600}.panel{font-size:13px;font-weight:600}.label{font-size:12px}.value{font-size:11px;fill:#333}.note{font-size:11px;fill:#666}</style>
<rect width="100%" height="100%" fill="#fff"/>
<text x="10" y="22" class="title">${escapeXml(title)}</text>
${parts.join('\n')}
<text x="10" y="${height - 10}" class="note">median req/s over rounds; (×) = median of per-round ratios to hand-written node:http</text>
</svg>
`;
}
