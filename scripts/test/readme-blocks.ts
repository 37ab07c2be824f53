// The shell blocks of a README as the README-block test runs them, with the markers that steer it.
//
// A ```sh (or ```bash) block runs as pasted. HTML comments on the lines right before its fence say more:
//   <!-- readme-test: skip (reason) -->   the block cannot run here (ROS 2, Docker, a server that runs
//                                        until Ctrl-C); the reason is required
//   <!-- readme-test: expect /regex/ -->  the block's output (stdout and stderr) must match; one per
//                                        promise the prose makes about the output

export interface ReadmeBlock {
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
  skipReason?: string;
  expect: RegExp[];
  /** Markers that are not understood: a typo must not silently turn a check off. */
  badMarkers: string[];
}

const fence = /^```(sh|bash)\s*$/;
const marker = /^<!--\s*readme-test:\s*(.*?)\s*-->$/;

export function readmeBlocks(markdown: string): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    if (/^```/.test(lines[i]!) && !fence.test(lines[i]!)) {
      // Another language's block: skip to its end so a ```sh inside it is not read as a fence.
      i++;
      while (i < lines.length && !/^```\s*$/.test(lines[i]!)) i++;
      i++;
      continue;
    }
    if (!fence.test(lines[i]!)) {
      i++;
      continue;
    }
    const block: ReadmeBlock = { line: i + 1, code: '', expect: [], badMarkers: [] };
    for (let j = i - 1; j >= 0; j--) {
      const m = marker.exec(lines[j]!.trim());
      if (!m) break;
      readMarker(m[1]!, block);
    }
    const body: string[] = [];
    i++;
    while (i < lines.length && !/^```\s*$/.test(lines[i]!)) body.push(lines[i++]!);
    block.code = `${body.join('\n')}\n`;
    blocks.push(block);
    i++;
  }
  return blocks;
}

function readMarker(text: string, block: ReadmeBlock): void {
  const skip = /^skip\s*\((.*)\)$/.exec(text);
  if (skip && skip[1]!.trim().length > 0) {
    block.skipReason = skip[1]!.trim();
    return;
  }
  const expect = /^expect\s+\/(.+)\/([a-z]*)$/.exec(text);
  if (expect) {
    try {
      block.expect.push(new RegExp(expect[1]!, expect[2]));
      return;
    } catch {
      // falls through to a bad marker
    }
  }
  block.badMarkers.push(text);
}
