// Unit tests of scripts/ci/post-comment.js (node --test tests/ci/). With SPECDIFF_ARTIFACT_DIR
// (set by crates/cli/tests/ci_action.rs) they also read the artifact that the action's own
// script made from real dumps.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import test from 'node:test';

const require = createRequire(import.meta.url);
const poster = require('../../scripts/ci/post-comment.js');
const { MARKER, LIMIT, BOT_LOGIN } = poster;

test('pull-request numbers are digits only', () => {
  assert.equal(poster.parsePrNumber('42\n'), 42);
  for (const bad of ['', '0', '-1', '4 2', '42; rm -rf /', '1e3', '12345678901', '$(id)']) {
    assert.throws(() => poster.parsePrNumber(bad), /pr-number: not a pull-request number/, bad);
  }
});

test('the body starts with the marker once and stays under the limit', () => {
  assert.equal(poster.commentBody('## specdiff'), `${MARKER}\n## specdiff`);
  assert.equal(poster.commentBody(`${MARKER}\n## x`), `${MARKER}\n## x`);
  const long = poster.commentBody('é'.repeat(LIMIT * 2));
  assert.ok([...long].length <= LIMIT && long.startsWith(MARKER) && long.endsWith("comment limit\n"));
});

test('only the bot\'s marked comment is edited', () => {
  const comments = [
    { id: 1, user: { login: 'someone' }, body: `${MARKER}\nfake` },
    { id: 2, user: { login: BOT_LOGIN }, body: 'another bot comment' },
    { id: 3, user: { login: BOT_LOGIN }, body: `${MARKER}\n## specdiff` },
    { id: 4, user: null, body: null },
  ];
  assert.equal(poster.findMarked(comments).id, 3);
  assert.equal(poster.findMarked(comments.slice(0, 2)), null);
});

function artifact(files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'specdiff-artifact-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

test('a bad artifact is refused', () => {
  assert.throws(() => poster.readArtifact(artifact({ 'comment.md': 'x' })), /pr-number: missing/);
  assert.throws(() => poster.readArtifact(artifact({ 'pr-number': '7', 'comment.md': 'x'.repeat(5 * LIMIT) })), /comment.md: \d+ bytes/);
  const dir = artifact({ 'pr-number': '7' });
  fs.symlinkSync('/etc/passwd', path.join(dir, 'comment.md'));
  assert.throws(() => poster.readArtifact(dir), /comment.md: missing from the artifact \(or not a plain file\)/);
});

/** A stand-in for the API client, recording the calls (the API itself cannot run here). */
function client(headSha, comments) {
  const calls = [];
  const rest = {
    pulls: { get: async (a) => (calls.push(['get', a]), { data: { head: { sha: headSha } } }) },
    issues: {
      listComments: 'listComments',
      updateComment: async (a) => calls.push(['update', a]),
      createComment: async (a) => calls.push(['create', a]),
    },
  };
  return { calls, github: { rest, paginate: async (what, a) => (calls.push([what, a]), comments) } };
}
const context = { repo: { owner: 'o', repo: 'r' }, payload: { workflow_run: { head_sha: 'abc' } } };
const core = { info() {}, warning() {} };

test('updates the marked comment, else creates one, and skips a stale run', async () => {
  const dir = artifact({ 'pr-number': '7\n', 'comment.md': '## specdiff: no change' });
  const mine = [{ id: 9, user: { login: BOT_LOGIN }, body: `${MARKER}\nold` }];
  let c = client('abc', mine);
  assert.equal(await poster.run({ github: c.github, context, core, dir }), 'updated');
  assert.deepEqual(c.calls.at(-1), ['update', { owner: 'o', repo: 'r', comment_id: 9, body: `${MARKER}\n## specdiff: no change` }]);
  c = client('abc', []);
  assert.equal(await poster.run({ github: c.github, context, core, dir }), 'created');
  assert.equal(c.calls.at(-1)[1].issue_number, 7);
  c = client('def', mine);
  assert.equal(await poster.run({ github: c.github, context, core, dir }), 'skipped');
  assert.equal(c.calls.length, 1);
});

test('the artifact made from real dumps', { skip: !process.env.SPECDIFF_ARTIFACT_DIR && 'SPECDIFF_ARTIFACT_DIR not set (crates/cli/tests/ci_action.rs sets it)' }, () => {
  const { number, body } = poster.readArtifact(process.env.SPECDIFF_ARTIFACT_DIR);
  assert.ok(number > 0);
  assert.ok(body.startsWith(`${MARKER}\n## specdiff: `), body.slice(0, 80));
  assert.ok(body.includes('dot_sum') && [...body].length <= LIMIT);
});
