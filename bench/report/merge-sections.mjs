// latest.md is written by several parts and edited by hand (notes of a run, another engineer's
// section): each generated "## " section replaces its namesake where it stands, a new one goes at
// the end (or, if its heading is in `top`, right after the title), and every section nobody
// generated this time is kept as it is.

/** The text before the first "## " heading, and each "## " section (heading line to the next). */
function split(text) {
  const starts = [...text.matchAll(/^## .*$/gm)].map((match) => match.index);
  const preamble = text.slice(0, starts[0] ?? text.length);
  const sections = starts.map((start, i) => {
    const body = text.slice(start, starts[i + 1] ?? text.length).trimEnd();
    return { heading: body.split('\n', 1)[0].trim(), body };
  });
  return { preamble: preamble.trimEnd(), sections };
}

/** `generated`: markdown documents; a document's preamble (its "# " title and lines) replaces the file's. */
export function mergeSections(existing, generated, { top = [] } = {}) {
  const file = split(existing);
  for (const document of generated) {
    const { preamble, sections } = split(document);
    if (preamble !== '') file.preamble = preamble;
    for (const section of sections) {
      const at = file.sections.findIndex((candidate) => candidate.heading === section.heading);
      if (at !== -1) file.sections[at] = section;
      else if (top.includes(section.heading)) file.sections.unshift(section);
      else file.sections.push(section);
    }
  }
  return `${[file.preamble, ...file.sections.map((section) => section.body)].filter((part) => part !== '').join('\n\n')}\n`;
}
