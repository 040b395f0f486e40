// Posts specdiff's pull-request comment, from the privileged `workflow_run` job (comment/action.yml,
// run by actions/github-script): reads the artifact the unprivileged `pull_request` run uploaded
// (comment.md, pr-number), checks it, and edits the one comment carrying the marker, or adds it.
//
// Everything in the artifact is untrusted (a fork's pull request wrote it): the number must be
// digits and name a pull request whose head is the commit that run tested, and the body is only
// ever passed to the API as data.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const MARKER = '<!-- specdiff -->';
/** GitHub's limit on a comment body, in characters. */
const LIMIT = 65536;
/** Largest artifact file read (a comment is at most LIMIT characters of up to 4 bytes). */
const MAX_FILE_BYTES = 4 * LIMIT;
/** Who posts the comment (the GITHUB_TOKEN's user): only its comments are edited. */
const BOT_LOGIN = 'github-actions[bot]';

/** The pull-request number in `pr-number`'s text; throws on anything but 1–10 digits. */
function parsePrNumber(text) {
  const t = String(text).trim();
  if (!/^[1-9][0-9]{0,9}$/.test(t)) throw new Error(`pr-number: not a pull-request number: ${JSON.stringify(t.slice(0, 40))}`);
  return Number(t);
}

/** The comment body: starts with the marker, at most LIMIT characters. */
function commentBody(markdown) {
  const text = String(markdown);
  let body = text.startsWith(MARKER) ? text : `${MARKER}\n${text}`;
  const chars = [...body];
  if (chars.length > LIMIT) body = chars.slice(0, LIMIT - 40).join('') + "\n\n… cut at GitHub's comment limit\n";
  return body;
}

/** The comment to edit among `comments` (GitHub's issue comments): the bot's, with the marker. */
function findMarked(comments, botLogin = BOT_LOGIN) {
  return comments.find((c) => c?.user?.login === botLogin && typeof c.body === 'string' && c.body.startsWith(MARKER)) ?? null;
}

function readSmall(dir, name) {
  const file = path.join(dir, name);
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!stat || !stat.isFile()) throw new Error(`${name}: missing from the artifact (or not a plain file)`);
  if (stat.size > MAX_FILE_BYTES) throw new Error(`${name}: ${stat.size} bytes, more than a comment can hold`);
  return fs.readFileSync(file, 'utf8');
}

/** The artifact's pull-request number and comment body, checked. */
function readArtifact(dir) {
  return { number: parsePrNumber(readSmall(dir, 'pr-number')), body: commentBody(readSmall(dir, 'comment.md')) };
}

/** Posts or updates the comment. `github`, `context`, `core`: actions/github-script's. */
async function run({ github, context, core, dir }) {
  const { number, body } = readArtifact(dir);
  const { owner, repo } = context.repo;
  const tested = context.payload.workflow_run?.head_sha;
  const { data: pr } = await github.rest.pulls.get({ owner, repo, pull_number: number });
  if (pr.head.sha !== tested) {
    // Pushed again since (that run will post), or an artifact naming some other pull request.
    core.warning(`pull request #${number} is at ${pr.head.sha}, the run tested ${tested}: not commenting`);
    return 'skipped';
  }
  const comments = await github.paginate(github.rest.issues.listComments, { owner, repo, issue_number: number, per_page: 100 });
  const mine = findMarked(comments);
  if (mine) {
    await github.rest.issues.updateComment({ owner, repo, comment_id: mine.id, body });
    core.info(`updated comment ${mine.id} on #${number}`);
    return 'updated';
  }
  await github.rest.issues.createComment({ owner, repo, issue_number: number, body });
  core.info(`commented on #${number}`);
  return 'created';
}

module.exports = { MARKER, LIMIT, BOT_LOGIN, parsePrNumber, commentBody, findMarked, readArtifact, run };
