// AlbumStore's album browser: one page over `albumstore serve`'s JSON API (docs/serve.md).
// Every text from the library goes into the page as text (textContent, createTextNode, SVG
// text nodes), never as HTML; the CSP allows no inline script or style.
'use strict';

// ---------------------------------------------------------------------------------------------
// The API: fetch with the page's token on every write; errors become ApiError

// The server's token for writes. A restarted server has a new one: a write refused for its
// token fetches the page again for the new token and is sent once more.
let token = document.querySelector('meta[name="albumstore-token"]').content;

class ApiError extends Error {
  constructor(status, body, method, path) {
    const text = body && typeof body.error === 'string' ? body.error : `HTTP ${status}`;
    super(text);
    this.status = status;
    this.body = body || {};
    this.where = `${method} ${path.split('?')[0]}`;
  }
}

// `body` is a value sent as JSON, or a Blob (a dropped file) sent as it is.
async function api(method, path, body) {
  const answer = await send(method, path, body);
  if (answer.status === 403 && method !== 'GET' && /token/u.test(answer.data?.error ?? '') && await refreshToken()) {
    return unwrap(await send(method, path, body), method, path);
  }
  return unwrap(answer, method, path);
}

async function send(method, path, body) {
  const headers = {};
  let payload;
  if (method !== 'GET') headers['X-AlbumStore-Token'] = token;
  if (body instanceof Blob) {
    payload = body;
    headers['Content-Type'] = body.type || 'application/octet-stream';
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['Content-Type'] = 'application/json';
  }
  let response;
  try {
    response = await fetch(path, { method, headers, body: payload, credentials: 'same-origin' });
  } catch {
    return { status: 0, data: { error: 'the server cannot be reached: is albumstore serve still running?' } };
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  return { status: response.status, ok: response.ok, data };
}

function unwrap({ status, ok, data }, method, path) {
  if (!ok) throw new ApiError(status, data, method, path);
  return data;
}

// Reads the token of the server now listening (after a restart, a new one) from its page.
// Returns whether it changed.
async function refreshToken() {
  try {
    const response = await fetch('/', { cache: 'no-store', credentials: 'same-origin' });
    if (!response.ok) return false;
    const page = new DOMParser().parseFromString(await response.text(), 'text/html');
    const fresh = page.querySelector('meta[name="albumstore-token"]')?.content;
    if (!fresh || fresh === token) return false;
    token = fresh;
    return true;
  } catch {
    return false;
  }
}

const $ = (id) => document.getElementById(id);

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

const numberFormat = new Intl.NumberFormat('en');
const plural = (n, word, words = `${word}s`) => `${numberFormat.format(n)} ${n === 1 ? word : words}`;

// ---------------------------------------------------------------------------------------------
// Messages: news in the status line at the foot; an error in words beside the control it came
// from (and in the status line, for screen readers). Never alert().

let statusTimer = 0;

function showStatus(text, { error = false, sticky = false } = {}) {
  const line = $('status');
  line.textContent = text;
  line.classList.toggle('error', error);
  clearTimeout(statusTimer);
  // Errors stay until the next message; news fades so the line stays calm.
  if (!error && !sticky) statusTimer = setTimeout(() => { line.textContent = ''; }, 6000);
}

const MESSAGE_AREAS = ['toolbar', 'details', 'search', 'stats', 'history'];

// Shows `text` in the message line of an area (one of MESSAGE_AREAS), or clears it. `busy`: the
// message is about a running import, and goes when it ends.
function showMessage(area, text, { error = true, busy = false } = {}) {
  const line = $(`${area}-message`);
  line.textContent = text || '';
  line.hidden = !text;
  line.classList.toggle('error', error);
  line.dataset.busy = String(busy);
}

// An error in words: what could not be done (`action`, e.g. "Could not delete “Low”") and why.
function describeError(error, action) {
  if (!(error instanceof ApiError)) return `${action}: ${String(error && error.message ? error.message : error)}`;
  if (error.status === 0) return `${action}: the server cannot be reached. Is albumstore serve still running?`;
  if (error.status === 409 && error.body.busy) return `${action} now: ${error.message}.`;
  return `${action}: ${error.message}.`;
}

// Reports an error beside its control (`area`) and in the status line.
function reportError(error, action = 'Something went wrong', area = 'toolbar') {
  const busy = error instanceof ApiError && error.status === 409 && Boolean(error.body.busy);
  if (busy) setBusy(error.body.busy);
  const text = describeError(error, action);
  if (area) showMessage(area, text, { busy });
  showStatus(text, { error: true });
}

// ---------------------------------------------------------------------------------------------
// The page's model of the library

const model = {
  path: '',
  total: 0,
  canUndo: false,
  canRedo: false,
  currentIndex: null,   // the current album's place in the list, or null (an empty library)
  currentAlbum: null,   // its fields, once loaded
  busy: null,           // what the server is importing ("Importing albums.csv"), or null
  acting: false,        // an undo, redo or delete is on its way
  fetching: false,      // this page's covers fetch runs
  importing: false,     // this page's import (a file or a folder) runs
};

async function loadLibrary() {
  const library = await api('GET', '/api/library');
  model.path = library.path || '';
  model.canUndo = Boolean(library.can_undo);
  model.canRedo = Boolean(library.can_redo);
  if ('busy' in library) setBusy(library.busy);
  setTotal(library.albums);
  renderToolbar();
}

// An import holds the library's writer until it ends: what would wait on it (undo, delete,
// edits, ...) is disabled meanwhile, with the reason beside the toolbar. A choice of album
// made meanwhile is saved when the import ends.
function setBusy(label) {
  const was = model.busy;
  model.busy = label || null;
  if (was === model.busy) return;
  renderToolbar();
  renderDetailsActions();
  if (model.busy) {
    showMessage('toolbar', `${model.busy}: undo, delete and other changes wait until it ends.`, { error: false, busy: true });
  } else {
    for (const area of MESSAGE_AREAS) if ($(`${area}-message`).dataset.busy === 'true') showMessage(area, '');
    flushSaves();
  }
}



function renderToolbar() {
  $('album-count').textContent = plural(model.total, 'album');
  // The file's name; its whole path on hover.
  $('library-path').textContent = model.path.split('/').pop();
  $('library-path').title = model.path;
  const idle = {
    undo: model.canUndo && !model.acting,
    redo: model.canRedo && !model.acting,
    delete: model.currentAlbum !== null && !model.acting,
    'fetch-covers': !model.fetching,
    'import-file': !model.importing,
    'import-folder': !model.importing,
  };
  for (const [id, enabled] of Object.entries(idle)) {
    const button = $(id);
    button.disabled = !enabled || model.busy !== null;
    // The reason, where a pointer or a screen reader finds it.
    if (model.busy) button.setAttribute('aria-description', `${model.busy}: wait until it ends`);
    else button.removeAttribute('aria-description');
  }
}

// ---------------------------------------------------------------------------------------------
// Pages of the ordered list: fetched by offset as the scroller needs them, cached, and dropped
// when far from the view. A change elsewhere bumps `generation`: cached pages stay on screen
// (no flicker) until their fresh copy arrives.

const PAGE_SIZE = 100;
const PAGES_KEPT = 12;          // pages on each side of the view kept in the cache
const pages = new Map();        // page number -> { generation, albums, loading }
let generation = 0;

function albumAt(index) {
  const entry = pages.get(Math.floor(index / PAGE_SIZE));
  if (!entry || !entry.albums) return undefined;
  return entry.albums[index % PAGE_SIZE];
}

function fetchPage(number) {
  const entry = pages.get(number);
  if (entry && (entry.loading === generation || (entry.albums && entry.generation === generation))) return;
  const asked = generation;
  const kept = entry || { generation: -1, albums: null };
  kept.loading = asked;
  pages.set(number, kept);
  api('GET', `/api/albums?offset=${number * PAGE_SIZE}&limit=${PAGE_SIZE}`)
    .then((answer) => {
      if (asked !== generation || pages.get(number) !== kept) return;
      kept.albums = answer.albums;
      kept.generation = asked;
      kept.loading = null;
      if (answer.total !== model.total) setTotal(answer.total);
      pageArrived(number);
    })
    .catch((error) => {
      if (pages.get(number) === kept) kept.loading = null;
      reportError(error, 'Could not load the albums', null);
    });
}

function pageArrived(number) {
  const index = model.currentIndex;
  if (index !== null && Math.floor(index / PAGE_SIZE) === number) {
    const album = albumAt(index);
    if (album) setCurrentAlbum(album);
  }
  scheduleRender();
}

// Forgets every page except those near [first, last].
function prunePages(first, last) {
  const low = Math.floor(first / PAGE_SIZE) - PAGES_KEPT;
  const high = Math.floor(last / PAGE_SIZE) + PAGES_KEPT;
  for (const number of pages.keys()) {
    if (number < low || number > high) pages.delete(number);
  }
}

function invalidatePages() {
  generation += 1;
  scheduleRender();
}

// ---------------------------------------------------------------------------------------------
// The cover scroller, virtualized: a track as wide as the whole list and, in it, only the covers
// in view (plus a margin). Browsers cap an element's width (about 33 million px in Chromium), so
// a longer list is cut into pages, each shifted by `paging.offset` (the scheme of SlickGrid):
// wheel, keys and trackpad move 1:1 at any length, and a drag of the scroll bar jumps
// proportionally.

const scroller = $('scroller');
const track = $('scroller-track');
const GAP = 20;
const PAD = 28;
const MARGIN = 4;               // covers drawn beyond each edge of the view
const MAX_TRACK = 16_000_000;   // px
const nodes = new Map();        // index -> the .album element drawn for it
let renderPending = false;
let coverStride = readStride();

// A cover's width (the CSS --cover, smaller on narrow screens) and the gap after it.
function readStride() {
  return parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--cover')) + GAP;
}

function stride() {
  return coverStride;
}

function virtualWidth() {
  return Math.max(model.total * stride() - GAP + 2 * PAD, 0);
}

// `view`: the scroller's last width while shown; `hiddenLeft`: where it was (or is to go) while
// another tab hides it, when it has no width to scroll in.
const paging = { offset: 0, lastScroll: 0, view: 0, hiddenLeft: null };

function viewWidth() {
  if (scroller.clientWidth > 0) paging.view = scroller.clientWidth;
  return paging.view;
}

// The real track's width, the virtual width of a page, and how far apart pages' offsets are.
function pageGeometry() {
  const virtual = virtualWidth();
  const real = Math.min(virtual, MAX_TRACK);
  const pageWidth = real / 100;
  // Rounded down, so that the last page's offset is exactly virtual - real.
  const count = Math.max(1, Math.floor(virtual / pageWidth));
  const jump = count > 1 ? (virtual - real) / (count - 1) : 0;
  return { virtual, real, pageWidth, count, jump };
}

// The virtual x at the scroller's left edge.
function virtualLeft() {
  return paging.hiddenLeft ?? scroller.scrollLeft + paging.offset;
}

// Scrolls to a virtual x: picks its page, then the real scroll position within it.
function scrollToVirtual(x) {
  const { virtual, pageWidth, count, jump } = pageGeometry();
  const target = Math.max(0, Math.min(x, virtual - viewWidth()));
  if ($('panel-albums').hidden) {
    paging.hiddenLeft = target;
    return;
  }
  const page = Math.min(count - 1, Math.floor(target / pageWidth));
  paging.offset = Math.round(Math.max(page, 0) * jump);
  scroller.scrollLeft = target - paging.offset;
  paging.lastScroll = scroller.scrollLeft;
  scheduleRender();
}

// A small scroll continues from where the view is; a jump (the scroll bar dragged) lands at the
// same proportion of the whole list.
function scrolled() {
  const now = scroller.scrollLeft;
  const distance = Math.abs(now - paging.lastScroll);
  paging.lastScroll = now;
  const { virtual, real, pageWidth, count, jump } = pageGeometry();
  if (jump === 0) {
    paging.offset = 0;
  } else if (distance <= viewWidth()) {
    const x = now + paging.offset;
    const page = Math.min(count - 1, Math.floor(x / pageWidth));
    if (Math.round(page * jump) !== paging.offset) {
      scrollToVirtual(x);
      return;
    }
  } else {
    const view = viewWidth();
    const x = real > view ? now * ((virtual - view) / (real - view)) : 0;
    paging.offset = Math.round(Math.min(count - 1, Math.floor(x / pageWidth)) * jump);
  }
  scheduleRender();
}

function setTotal(total) {
  const changed = total !== model.total;
  model.total = total;
  if (changed) layoutTrack();
  $('empty-library').hidden = total > 0;
  renderToolbar();
  scheduleRender();
}

// Sizes the track for the list's length and the cover size, keeping the view where it was.
function layoutTrack() {
  const x = virtualLeft();
  track.style.width = `${pageGeometry().real}px`;
  scrollToVirtual(x);
}

function scheduleRender() {
  if (renderPending) return;
  renderPending = true;
  requestAnimationFrame(() => {
    renderPending = false;
    renderScroller();
  });
}

function renderScroller() {
  const step = stride();
  const left = virtualLeft();
  const view = viewWidth();
  const first = Math.max(0, Math.floor((left - PAD) / step) - MARGIN);
  const last = Math.min(model.total - 1, Math.ceil((left + view - PAD) / step) + MARGIN);

  for (const [index, node] of nodes) {
    if (index < first || index > last) {
      node.remove();
      nodes.delete(index);
    }
  }
  for (let index = first; index <= last; index += 1) {
    let node = nodes.get(index);
    if (!node) {
      node = makeAlbumNode(index);
      nodes.set(index, node);
      track.append(node);
    }
    node.style.left = `${PAD + index * step - paging.offset}px`;
    fillAlbumNode(node, albumAt(index));
    // Only the covers in view exist: each says where it stands in the whole list.
    node.setAttribute('aria-posinset', String(index + 1));
    node.setAttribute('aria-setsize', String(model.total));
    const current = index === model.currentIndex;
    node.classList.toggle('current', current);
    node.setAttribute('aria-selected', String(current));
  }
  if (last >= first) {
    for (let number = Math.floor(first / PAGE_SIZE); number <= Math.floor(last / PAGE_SIZE); number += 1) {
      fetchPage(number);
    }
    prunePages(first, last);
  }
  const currentNode = nodes.get(model.currentIndex);
  if (currentNode) scroller.setAttribute('aria-activedescendant', currentNode.id);
  else scroller.removeAttribute('aria-activedescendant');
}

function makeAlbumNode(index) {
  const node = element('div', 'album loading');
  node.id = `album-${index}`;
  node.dataset.index = String(index);
  node.setAttribute('role', 'option');
  node.draggable = true;
  const art = element('div', 'art');
  const caption = element('div', 'caption');
  caption.append(element('span', 'title'), element('span', 'artist'));
  node.append(art, caption);
  return node;
}

// Draws an album (or, while its page loads, an empty frame) into a node, touching the DOM only
// when what it shows changed.
function fillAlbumNode(node, album) {
  const key = album ? `${album.id}|${album.title}|${album.artist}|${album.cover ? album.cover.sha256 : ''}` : '';
  if (node.dataset.key === key) return;
  node.dataset.key = key;
  node.classList.toggle('loading', !album);
  const art = node.querySelector('.art');
  art.replaceChildren();
  art.style.backgroundColor = '';
  art.classList.remove('placeholder');
  node.querySelector('.title').textContent = album ? album.title : '';
  node.querySelector('.artist').textContent = album ? album.artist : '';
  if (!album) {
    node.removeAttribute('aria-label');
    delete node.dataset.id;
    return;
  }
  node.dataset.id = String(album.id);
  node.setAttribute('aria-label', `${album.title} by ${album.artist}`);
  drawArt(art, album);
}

// An album's cover, or a placeholder: its initials on a colour drawn from its id.
function drawArt(art, album) {
  art.classList.toggle('placeholder', !album.cover);
  if (album.cover) {
    const image = element('img');
    image.loading = 'lazy';
    image.alt = '';
    image.draggable = false;
    // Cached by the browser, revalidated with its ETag (the server says no-cache): a new node
    // for a replaced cover (its sha256 is in the node's key) shows the new image.
    image.src = `/api/covers/${album.id}`;
    art.append(image);
  } else {
    art.style.backgroundColor = placeholderColour(album.id);
    art.append(element('span', 'initials', initials(album)));
  }
}

function placeholderColour(id) {
  const hue = (Number(id) * 137.508) % 360;   // the golden angle spreads neighbours apart
  // Dark enough for white initials at 4.5:1 whatever the hue.
  return `hsl(${hue.toFixed(1)} 30% 34%)`;
}

// Small words are skipped when the title has others: "Kind of Blue" is KB, "The Wall" TW.
const SMALL_WORDS = new Set(['a', 'an', 'and', 'at', 'by', 'for', 'in', 'is', 'of', 'on', 'or', 'the', 'to']);

function initials(album) {
  const words = String(album.title).split(/\s+/u)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+/u, ''))
    .filter((word) => word !== '');
  const main = words.filter((word, at) => at === 0 || !SMALL_WORDS.has(word.toLowerCase()));
  const letters = main.slice(0, 2).map((word) => Array.from(word)[0]);
  return letters.join('').toUpperCase() || '♪';
}

// Scrolls so that the album at `index` is in view (centred when it was not).
function scrollToIndex(index) {
  const step = stride();
  const view = viewWidth();
  const left = virtualLeft();
  const x = PAD + index * step;
  if (x >= left && x + step - GAP <= left + view) return;
  scrollToVirtual(x - (view - step) / 2);
}

scroller.addEventListener('scroll', scrolled, { passive: true });
window.addEventListener('resize', () => {
  coverStride = readStride();
  layoutTrack();
});

// A vertical wheel scrolls the scroller sideways: most mice have no horizontal wheel.
scroller.addEventListener('wheel', (event) => {
  if (Math.abs(event.deltaY) <= Math.abs(event.deltaX)) return;
  event.preventDefault();
  scrollToVirtual(virtualLeft() + event.deltaY);
}, { passive: false });

scroller.addEventListener('click', (event) => {
  const node = event.target.closest('.album');
  if (node) chooseIndex(Number(node.dataset.index));
});

// ---------------------------------------------------------------------------------------------
// The current album: shown in the scroller and the details table, saved in the session state.
// Saves are serialized and coalesced: holding an arrow key sends the last place, not every one.

const saves = { wanted: null, running: false, edits: 0 };

function chooseIndex(index) {
  if (model.total === 0) return;
  const clamped = Math.min(Math.max(index, 0), model.total - 1);
  model.currentIndex = clamped;
  const album = albumAt(clamped);
  setCurrentAlbum(album || null);
  scrollToIndex(clamped);
  scheduleRender();
  saveCurrent({ index: clamped });
}

async function saveCurrent(body) {
  saves.wanted = body;
  saves.edits += 1;
  await flushSaves();
}

// Sends the wanted place, unless an import holds the writer: then it waits for its end.
async function flushSaves() {
  if (saves.running || model.busy) return;
  saves.running = true;
  try {
    while (saves.wanted && !model.busy) {
      const sent = saves.wanted;
      const answer = await api('PUT', '/api/state/current', sent);
      if (saves.wanted === sent) {
        saves.wanted = null;
        applyCurrent(answer);
      }
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 409 && error.body.busy) {
      setBusy(error.body.busy);   // an import began: the place is kept, and sent when it ends
    } else {
      saves.wanted = null;
      reportError(error, 'Could not save the current album', 'details');
    }
  } finally {
    saves.running = false;
  }
}

// Takes the server's word for the current album ({index, album}); scrolls to it when it moved
// (a refresh leaves the scroller where the user put it). With none saved yet, the first album
// is shown as current, and saved once the user chooses one.
function applyCurrent(answer, { scroll } = {}) {
  let { index, album } = answer;
  if (index === null && model.total > 0) {
    index = 0;
    album = albumAt(0) || null;
  }
  const moved = index !== model.currentIndex;
  model.currentIndex = index;
  setCurrentAlbum(album);
  if ((scroll ?? moved) && index !== null) scrollToIndex(index);
  scheduleRender();
}

// Reloads the current album, unless the user changed it meanwhile (their save wins).
async function loadCurrent() {
  const edits = saves.edits;
  const answer = await api('GET', '/api/state/current');
  if (edits === saves.edits && !saves.running && !saves.wanted) applyCurrent(answer);
}

function setCurrentAlbum(album) {
  model.currentAlbum = album;
  renderDetails();
  renderToolbar();
  scheduleURL();
}

// Makes the album with this id current (from a search result), and shows it.
async function chooseAlbumID(id) {
  try {
    const answer = await api('PUT', '/api/state/current', { id });
    saves.edits += 1;
    selectTab('albums');
    applyCurrent(answer, { scroll: true });
    scroller.focus({ preventScroll: true });
  } catch (error) {
    reportError(error, 'Could not show that album', null);
  }
}

// ---------------------------------------------------------------------------------------------
// The details table: Artist, Album, Genre, Year, each editable in place (one undoable edit);
// "More" shows every other field

const MAIN_FIELDS = [['Artist', 'artist'], ['Album', 'title'], ['Genre', 'genre'], ['Year', 'year']];
const MORE_FIELDS = [
  // Indexes are 0-based, written #N, as everywhere in AlbumStore.
  ['Index', () => (model.currentIndex === null ? '' : `#${numberFormat.format(model.currentIndex)} of ${numberFormat.format(model.total)}`)],
  ['ID', (album) => album.id],
  ['Cover', (album) => (album.cover ? `${album.cover.format}, ${album.cover.width} × ${album.cover.height}, ${plural(album.cover.bytes, 'byte')}` : 'none')],
  ['Cover URL', (album) => album.cover_url],
  ['External ID', (album) => album.external_id],
  ['Added', (album) => formatDate(album.created_at)],
  ['Changed', (album) => formatDate(album.updated_at)],
];

const editing = { field: null, albumID: null };

function renderDetails() {
  const album = model.currentAlbum;
  const main = $('details-main');
  const more = $('details-more');
  const art = $('details-art');
  const artKey = album ? `${album.id}|${album.title}|${album.cover ? album.cover.sha256 : ''}` : '';
  if (art.dataset.key !== artKey) {
    art.dataset.key = artKey;
    art.replaceChildren();
    art.style.backgroundColor = '';
    art.classList.remove('placeholder');
    if (album) drawArt(art, album);
  }
  renderDetailsActions();
  // An edit in progress keeps its field while the rest refreshes around it.
  if (editing.field && album && album.id === editing.albumID && main.contains(document.activeElement)) return;
  editing.field = null;
  main.replaceChildren();
  more.replaceChildren();
  if (!album) {
    const row = element('tr');
    const cell = element('td', 'empty', model.currentIndex === null ? 'No album chosen.' : 'Loading…');
    cell.colSpan = 2;
    row.append(cell);
    main.append(row);
    return;
  }
  for (const [label, key] of MAIN_FIELDS) main.append(editableRow(label, key, album));
  for (const [label, value] of MORE_FIELDS) more.append(detailRow(label, value(album)));
}

function renderDetailsActions() {
  const album = model.currentAlbum;
  $('details-actions').hidden = !album;
  for (const control of $('details-actions').querySelectorAll('button.action, input')) control.disabled = model.busy !== null;
  if (album && document.activeElement !== $('move-to')) {
    $('move-to').max = String(Math.max(model.total - 1, 0));
    $('move-to').value = model.currentIndex === null ? '' : String(model.currentIndex);
  }
}

function detailRow(label, value) {
  const row = element('tr');
  const header = element('th', null, label);
  header.scope = 'row';
  row.append(header, element('td', null, isBlank(value) ? '—' : value));
  return row;
}

const isBlank = (value) => value === null || value === undefined || value === '';

// A field's value as a button: activating it edits the value in place.
function editableRow(label, key, album) {
  const row = element('tr');
  const header = element('th', null, label);
  header.scope = 'row';
  const cell = element('td');
  const value = album[key];
  const button = element('button', 'editable', isBlank(value) ? '—' : value);
  button.type = 'button';
  button.setAttribute('aria-label', `Edit ${label.toLowerCase()}: ${isBlank(value) ? 'empty' : value}`);
  button.title = `Edit the ${label.toLowerCase()}`;
  button.disabled = model.busy !== null;
  button.addEventListener('click', () => startEdit(cell, label, key, album));
  cell.append(button);
  row.append(header, cell);
  return row;
}

// Enter saves, Escape (or leaving the field unchanged) puts the value back.
function startEdit(cell, label, key, album) {
  editing.field = key;
  editing.albumID = album.id;
  const input = element('input', 'edit-field');
  input.type = key === 'year' ? 'number' : 'text';
  input.value = isBlank(album[key]) ? '' : String(album[key]);
  input.setAttribute('aria-label', label);
  input.autocomplete = 'off';
  cell.replaceChildren(input);
  input.focus();
  input.select();
  let done = false;
  const finish = async (save) => {
    if (done) return;
    done = true;
    const text = input.value.trim();
    const unchanged = text === (isBlank(album[key]) ? '' : String(album[key]));
    if (save && !unchanged) {
      if (!(await saveEdit(album, key, label, text))) {
        done = false;          // refused: the field stays open with its error beside it
        input.focus();
        return;
      }
    }
    editing.field = null;
    renderDetails();
    $('details-main').querySelector(`tr:nth-child(${MAIN_FIELDS.findIndex(([, k]) => k === key) + 1}) button`)?.focus();
  };
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') { event.preventDefault(); finish(true); }
    else if (event.key === 'Escape') { event.preventDefault(); finish(false); }
  });
  input.addEventListener('blur', () => finish(true));
}

// Returns whether the edit was saved.
async function saveEdit(album, key, label, text) {
  const value = key === 'year' ? (text === '' ? null : Number(text)) : text;
  try {
    const answer = await api('PATCH', `/api/albums/${album.id}`, { [key]: value });
    showMessage('details', '');
    showStatus(`Changed the ${label.toLowerCase()} of “${answer.title}”. Undo takes it back.`);
    if (model.currentAlbum && model.currentAlbum.id === answer.id) model.currentAlbum = answer;
    refreshSoon({ albums: true });
    return true;
  } catch (error) {
    reportError(error, `Could not change the ${label.toLowerCase()}`, 'details');
    return false;
  }
}

function formatDate(text) {
  if (!text) return '';
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? text : date.toLocaleString();
}

$('details-toggle').addEventListener('click', () => {
  const more = $('details-more');
  more.hidden = !more.hidden;
  $('details-toggle').setAttribute('aria-expanded', String(!more.hidden));
  $('details-toggle').textContent = more.hidden ? 'More' : 'Less';
});

// A cover from a file, for those who do not drag one onto the scroller.
$('set-cover').addEventListener('click', () => $('set-cover-input').click());
$('set-cover-input').addEventListener('change', () => {
  const file = $('set-cover-input').files[0];
  $('set-cover-input').value = '';
  if (file && model.currentAlbum) setCover(model.currentAlbum.id, file, 'details');
});

// Moving by place, for those who do not drag a cover.
$('move-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const album = model.currentAlbum;
  const index = Number($('move-to').value);
  if (!album || !Number.isInteger(index)) return;
  if (index === model.currentIndex) return;
  moveAlbum({ id: album.id, index: model.currentIndex }, index, 'details');
});

// ---------------------------------------------------------------------------------------------
// Keyboard: arrows, Home and End move the current album wherever focus is, except in a text
// field or the tab list (where they move between tabs); Ctrl+Z and Ctrl+Shift+Z undo and redo

function isTyping(target) {
  return target instanceof HTMLElement && (target.isContentEditable || target.matches('input, textarea, select'));
}

document.addEventListener('keydown', (event) => {
  if (isTyping(event.target) || event.altKey || event.metaKey) return;
  if (event.ctrlKey) {
    if (event.key.toLowerCase() === 'z') {
      event.preventDefault();
      if (event.shiftKey) redo(); else undo();
    }
    return;
  }
  if (activeTab !== 'albums' || event.target.closest('[role="tablist"]')) return;
  const index = model.currentIndex ?? -1;
  const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: model.total - 1 };
  if (!(event.key in moves) || model.total === 0) return;
  event.preventDefault();
  chooseIndex(moves[event.key]);
});

// ---------------------------------------------------------------------------------------------
// The toolbar: Undo, Redo, Delete, Fetch covers

// One step back (undo) or forward (redo) through the history.
async function step(direction) {
  if (!(direction === 'undo' ? model.canUndo : model.canRedo) || model.acting) return;
  if (model.busy) {
    showMessage('toolbar', `${model.busy}: ${direction} waits until it ends.`, { error: false, busy: true });
    return;
  }
  model.acting = true;
  renderToolbar();
  try {
    const answer = await api('POST', `/api/${direction}`);
    showMessage('toolbar', '');
    showStatus(`${direction === 'undo' ? 'Undid' : 'Redid'}: ${answer.entry.description}`);
    refreshSoon({ albums: true, session: true });
  } catch (error) {
    reportError(error, `Could not ${direction}`);
  } finally {
    model.acting = false;
    renderToolbar();
  }
}

const undo = () => step('undo');
const redo = () => step('redo');

// Deletes the current album without asking: Undo brings it back. A second click while the
// first is on its way does nothing.
async function deleteCurrent() {
  const album = model.currentAlbum;
  if (!album || model.acting || model.busy) return;
  model.acting = true;
  renderToolbar();
  try {
    await api('DELETE', `/api/albums/${album.id}`);
    if (model.currentAlbum === album) setCurrentAlbum(null);
    showMessage('toolbar', '');
    showStatus(`Deleted “${album.title}” by ${album.artist}. Undo brings it back.`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) showMessage('toolbar', `“${album.title}” was deleted already (elsewhere).`, { error: false });
    else reportError(error, `Could not delete “${album.title}”`);
  } finally {
    model.acting = false;
    refreshSoon({ albums: true, session: true });
    renderToolbar();
  }
}

async function fetchCovers() {
  model.fetching = true;
  renderToolbar();
  showStatus('Fetching the missing covers…', { sticky: true });
  try {
    const summary = await api('POST', '/api/covers/fetch', {});
    const failed = Array.isArray(summary.failures) && summary.failures.length > 0;
    showMessage('toolbar', `Covers: ${describeFetch(summary)}.`, { error: failed });
    showStatus(`Covers: ${describeFetch(summary)}.`, { error: failed });
  } catch (error) {
    reportError(error, 'Could not fetch the covers');
  } finally {
    model.fetching = false;
    renderToolbar();
    endProgress();
  }
}

$('undo').addEventListener('click', undo);
$('redo').addEventListener('click', redo);
$('delete').addEventListener('click', deleteCurrent);
$('fetch-covers').addEventListener('click', fetchCovers);

// A covers fetch's summary in one line: how many were stored, failed, or had no URL.
function describeFetch(summary) {
  const count = (key) => (Array.isArray(summary[key]) ? summary[key].length : 0);
  const parts = [`${plural(count('stored'), 'cover')} fetched`];
  if (count('failures')) {
    const first = summary.failures[0];
    const reason = first && (first.reason || first.error);
    parts.push(`${numberFormat.format(count('failures'))} failed${reason ? ` (${reason})` : ''}`);
  }
  if (count('without_url')) parts.push(`${plural(count('without_url'), 'album')} without a cover URL`);
  return parts.join(', ');
}

// An import's summary as `albumstore import` says it: the inserted count, then the others that
// are not 0.
function describeImport(summary) {
  const parts = [`${numberFormat.format(summary.inserted ?? 0)} inserted`];
  const others = [
    ['updated', 'updated'],
    ['skipped_duplicates', 'skipped as duplicates'],
    ['duplicates_within_file', 'repeated within the file'],
    ['rejected', 'rejected'],
    ['skipped_not_music', 'not music'],
  ];
  for (const [key, words] of others) {
    if (summary[key]) parts.push(`${numberFormat.format(summary[key])} ${words}`);
  }
  const ignored = Array.isArray(summary.ignored_columns) ? summary.ignored_columns : [];
  const format = summary.format ? ` (${summary.format})` : '';
  return `${format}: ${parts.join(', ')}${ignored.length ? `; ignored columns: ${ignored.join(', ')}` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// Progress of the server's jobs (import, covers fetch), from /api/events `progress` events

const JOB_NAMES = { import: 'Importing', fetch: 'Fetching covers', scan: 'Reading tags', enrich: 'Looking up on MusicBrainz' };

// `event` is {job, done, total, rows?}: done of total units of work (bytes read, covers tried,
// files read). Progress has its own line beside the toolbar: it never covers a message.
function showProgress(event) {
  if (event.job === 'scan') showScanProgress(event);
  const { done, total, rows } = event;
  const known = typeof done === 'number' && typeof total === 'number' && total > 0;
  // The last event may come after the job's own answer: it must not show a finished job.
  if (known && done >= total) {
    endProgress();
    return;
  }
  const bar = $('job-progress');
  $('job').hidden = false;
  if (known) {
    bar.max = total;
    bar.value = done;
  } else {
    bar.removeAttribute('value');
  }
  const percent = known ? ` ${Math.floor((100 * done) / total)}%` : '';
  const counted = typeof rows === 'number' ? ` (${plural(rows, 'row')})` : '';
  $('job-text').textContent = `${JOB_NAMES[event.job] || 'Working'}…${percent}${counted}`;
}

function endProgress() {
  $('job').hidden = true;
  $('job-text').textContent = '';
}

// ---------------------------------------------------------------------------------------------
// Tabs: shown one at a time, reordered by dragging (or Shift+arrows); the order is saved only
// when it differs from the one last saved or loaded

const TAB_IDS = ['albums', 'search', 'stats', 'history'];
const tabList = $('tabs');
let activeTab = 'albums';
let savedTabs = TAB_IDS.slice();
let draggedTab = null;

function tabButton(id) {
  return tabList.querySelector(`[data-tab="${id}"]`);
}

function currentTabOrder() {
  return Array.from(tabList.querySelectorAll('[role="tab"]'), (tab) => tab.dataset.tab);
}

// The server's order, keeping only our tabs, then any of ours it does not name.
function normalizeTabs(tabs) {
  const known = (Array.isArray(tabs) ? tabs : []).filter((id, at, all) => TAB_IDS.includes(id) && all.indexOf(id) === at);
  return known.concat(TAB_IDS.filter((id) => !known.includes(id)));
}

function applyTabOrder(order) {
  for (const id of order) tabList.append(tabButton(id));
}

async function loadTabs() {
  const answer = await api('GET', '/api/state/tabs');
  if (draggedTab) return;
  savedTabs = normalizeTabs(answer.tabs);
  applyTabOrder(savedTabs);
}

async function saveTabOrder() {
  const order = currentTabOrder();
  if (order.join('\n') === savedTabs.join('\n')) return;
  const previous = savedTabs;
  savedTabs = order;
  try {
    const answer = await api('PUT', '/api/state/tabs', { tabs: order });
    savedTabs = normalizeTabs(answer.tabs);
  } catch (error) {
    savedTabs = previous;
    applyTabOrder(previous);
    reportError(error, 'Could not save the tab order', null);
  }
}

// `push`: a step the Back button goes back from (a click), else the address is replaced.
function selectTab(id, { push = false } = {}) {
  // A hidden scroller has no width: it keeps its place aside, and goes back to it when shown.
  if (activeTab === 'albums' && id !== 'albums') paging.hiddenLeft = virtualLeft();
  activeTab = id;
  for (const tab of tabList.querySelectorAll('[role="tab"]')) {
    const selected = tab.dataset.tab === id;
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
    $(tab.getAttribute('aria-controls')).hidden = !selected;
  }
  if (id === 'albums' && paging.hiddenLeft !== null) {
    const left = paging.hiddenLeft;
    paging.hiddenLeft = null;
    scrollToVirtual(left);
  }
  updateURL({ push });
  refreshTab(id);
}

// A click moves focus into the tab's panel, where the arrow keys do that panel's work (in the
// tab list they move between tabs).
tabList.addEventListener('click', (event) => {
  const tab = event.target.closest('[role="tab"]');
  if (!tab) return;
  selectTab(tab.dataset.tab, { push: tab.dataset.tab !== activeTab });
  if (event.detail === 0) return;   // Enter or Space on the tab: focus stays in the tab list
  if (activeTab === 'albums') scroller.focus({ preventScroll: true });
  else if (activeTab === 'search') $('search-input').focus();
});

// Arrows move between tabs; Shift+arrows move the tab itself.
tabList.addEventListener('keydown', (event) => {
  const tab = event.target.closest('[role="tab"]');
  if (!tab || !['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) return;
  event.preventDefault();
  const order = currentTabOrder();
  const at = order.indexOf(tab.dataset.tab);
  if (event.shiftKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
    const to = event.key === 'ArrowLeft' ? at - 1 : at + 1;
    if (to < 0 || to >= order.length) return;
    order.splice(to, 0, order.splice(at, 1)[0]);
    applyTabOrder(order);
    tab.focus();
    saveTabOrder();
    return;
  }
  const next = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: order.length - 1 }[event.key];
  const target = tabButton(order[(next + order.length) % order.length]);
  target.focus();
  selectTab(target.dataset.tab);
});

const TAB_TYPE = 'application/x-albumstore-tab';

tabList.addEventListener('dragstart', (event) => {
  const tab = event.target.closest('[role="tab"]');
  if (!tab) return;
  draggedTab = tab;
  tab.classList.add('dragging');
  event.dataTransfer.effectAllowed = 'move';
  event.dataTransfer.setData(TAB_TYPE, tab.dataset.tab);
});

tabList.addEventListener('dragover', (event) => {
  const tab = event.target.closest('[role="tab"]');
  if (!draggedTab || !tab) return;
  event.preventDefault();
  event.dataTransfer.dropEffect = 'move';
  const after = dropsAfter(event, tab);
  clearTabMarks();
  if (tab !== draggedTab) tab.classList.add(after ? 'drop-after' : 'drop-before');
});

tabList.addEventListener('drop', (event) => {
  const tab = event.target.closest('[role="tab"]');
  if (!draggedTab || !tab) return;
  event.preventDefault();
  if (tab !== draggedTab) {
    if (dropsAfter(event, tab)) tab.after(draggedTab);
    else tab.before(draggedTab);
  }
  saveTabOrder();
});

tabList.addEventListener('dragend', () => {
  if (draggedTab) draggedTab.classList.remove('dragging');
  draggedTab = null;
  clearTabMarks();
});

function dropsAfter(event, target) {
  const box = target.getBoundingClientRect();
  return event.clientX > box.left + box.width / 2;
}

function clearTabMarks() {
  for (const tab of tabList.querySelectorAll('.drop-before, .drop-after')) tab.classList.remove('drop-before', 'drop-after');
}

// ---------------------------------------------------------------------------------------------
// Links: the tab, the search (its query and sort) and the current album are in the page's
// address, so that reload, Back and bookmarks work. Other parameters (the off-loopback token)
// are kept.

const URL_KEYS = ['tab', 'q', 'sort', 'album'];
let urlTimer = 0;

function updateURL({ push = false } = {}) {
  clearTimeout(urlTimer);
  const params = new URLSearchParams(location.search);
  for (const key of URL_KEYS) params.delete(key);
  if (activeTab !== 'albums') params.set('tab', activeTab);
  if (search.query) params.set('q', search.query);
  if (search.sort) params.set('sort', search.sort);
  const album = model.currentAlbum;
  if (album) params.set('album', String(album.id));
  const text = params.toString();
  if (`?${text}` === location.search || (text === '' && location.search === '')) return;
  const url = text ? `?${text}` : location.pathname;
  if (push) history.pushState(null, '', url);
  else history.replaceState(null, '', url);
}

// Holding an arrow key changes the album many times a second: the address follows once it rests.
function scheduleURL() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(updateURL, 300);
}

// Shows what the address names: at start, and on Back and Forward. A reload keeps the album
// that is current now: the address follows the current album only once it rests, so right after
// a change it still names the one before.
async function applyURL({ atStart = false } = {}) {
  const params = new URLSearchParams(location.search);
  const tab = TAB_IDS.includes(params.get('tab')) ? params.get('tab') : 'albums';
  const query = params.get('q') ?? '';
  const sort = params.get('sort') ?? '';
  $('search-input').value = query;
  $('search-sort').value = [...$('search-sort').options].some((option) => option.value === sort) ? sort : '';
  search.sort = $('search-sort').value;
  if (query !== (search.query ?? '')) {
    search.query = query || null;
    if (!query) clearSearch();
  }
  const album = Number(params.get('album'));
  const reloaded = atStart && performance.getEntriesByType('navigation')[0]?.type === 'reload';
  if (!reloaded && Number.isInteger(album) && album > 0 && album !== model.currentAlbum?.id) {
    try {
      applyCurrent(await api('PUT', '/api/state/current', { id: album }), { scroll: true });
      saves.edits += 1;
    } catch (error) {
      reportError(error, `Could not show the album of this link (id ${album})`, 'details');
    }
  }
  selectTab(tab);
  if (reloaded) updateURL();
  if (tab === 'search' && !query) $('search-input').focus();
}

window.addEventListener('popstate', applyURL);

// ---------------------------------------------------------------------------------------------
// Moving an album: drag its cover onto another place in the scroller

const ALBUM_TYPE = 'application/x-albumstore-album';
let draggedAlbum = null;   // { id, index }

scroller.addEventListener('dragstart', (event) => {
  const node = event.target.closest('.album');
  if (!node || !node.dataset.id) {
    event.preventDefault();
    return;
  }
  draggedAlbum = { id: Number(node.dataset.id), index: Number(node.dataset.index) };
  event.dataTransfer.effectAllowed = 'move';
  event.dataTransfer.setData(ALBUM_TYPE, node.dataset.id);
});

scroller.addEventListener('dragend', () => {
  draggedAlbum = null;
  clearAlbumMarks();
});

scroller.addEventListener('dragover', (event) => {
  const node = event.target.closest('.album');
  if (!node) return;
  if (draggedAlbum) {
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    clearAlbumMarks();
    if (Number(node.dataset.index) !== draggedAlbum.index) node.classList.add(dropsAfter(event, node) ? 'move-after' : 'move-before');
  } else if (carriesFiles(event) && node.dataset.id) {
    // An image dropped here becomes this album's cover (not an import).
    event.preventDefault();
    event.stopPropagation();
    event.dataTransfer.dropEffect = 'copy';
    clearAlbumMarks();
    node.classList.add('drop-target');
    hideDropOverlay();
  }
});

scroller.addEventListener('dragleave', (event) => {
  const node = event.target.closest('.album');
  if (node && !node.contains(event.relatedTarget)) node.classList.remove('drop-target', 'move-before', 'move-after');
});

scroller.addEventListener('drop', (event) => {
  const node = event.target.closest('.album');
  if (!node) return;
  if (draggedAlbum) {
    event.preventDefault();
    let to = Number(node.dataset.index) + (dropsAfter(event, node) ? 1 : 0);
    if (draggedAlbum.index < to) to -= 1;
    const moved = draggedAlbum;
    clearAlbumMarks();
    if (to !== moved.index) moveAlbum(moved, to);
  } else if (carriesFiles(event) && node.dataset.id) {
    event.preventDefault();
    event.stopPropagation();
    dropState.depth = 0;
    hideDropOverlay();
    clearAlbumMarks();
    const file = event.dataTransfer.files[0];
    if (file) setCover(Number(node.dataset.id), file);
  }
});

function clearAlbumMarks() {
  for (const node of track.querySelectorAll('.drop-target, .move-before, .move-after')) node.classList.remove('drop-target', 'move-before', 'move-after');
}

async function moveAlbum(album, index, area = 'toolbar') {
  try {
    const answer = await api('POST', `/api/albums/${album.id}/move`, { index });
    showMessage(area, '');
    showStatus(`Moved “${answer.title}” to #${numberFormat.format(answer.index)}.`);
    invalidatePages();
    await saveCurrent({ id: answer.id });
    refreshSoon({ albums: true });
  } catch (error) {
    reportError(error, 'Could not move the album', area);
  }
}

async function setCover(id, file, area = 'toolbar') {
  if (file.type && !file.type.startsWith('image/')) {
    showMessage(area, `${file.name} is not an image: a cover is a JPEG, PNG, GIF or WebP file.`);
    return;
  }
  try {
    await api('PUT', `/api/covers/${id}`, file);
    showMessage(area, '');
    showStatus(`Set the cover from ${file.name}.`);
    refreshSoon({ albums: true });
  } catch (error) {
    reportError(error, `Could not set the cover from ${file.name}`, area);
  }
}

// ---------------------------------------------------------------------------------------------
// Import: a catalog file dropped anywhere on the page (except on a cover)

const dropState = { depth: 0 };

function carriesFiles(event) {
  return Boolean(event.dataTransfer) && Array.from(event.dataTransfer.types || []).includes('Files');
}

function hideDropOverlay() {
  $('drop-overlay').hidden = true;
}

document.addEventListener('dragenter', (event) => {
  if (!carriesFiles(event)) return;
  dropState.depth += 1;
  $('drop-overlay').hidden = false;
});

document.addEventListener('dragleave', (event) => {
  if (!carriesFiles(event)) return;
  dropState.depth = Math.max(0, dropState.depth - 1);
  if (dropState.depth === 0) hideDropOverlay();
});

document.addEventListener('dragover', (event) => {
  if (!carriesFiles(event)) return;
  event.preventDefault();
  event.dataTransfer.dropEffect = 'copy';
  $('drop-overlay').hidden = false;
});

document.addEventListener('drop', (event) => {
  if (!carriesFiles(event)) return;
  event.preventDefault();
  dropState.depth = 0;
  hideDropOverlay();
  importFiles(Array.from(event.dataTransfer.files));
});

// Catalogs are text; an image dropped beside a cover (or picked) is not read as one.
const IMAGE_NAME = /\.(jpe?g|png|gif|webp|bmp|tiff?|heic)$/iu;

async function importFiles(files) {
  for (const file of files) {
    if (file.type.startsWith('image/') || IMAGE_NAME.test(file.name)) {
      showImportSummary(`${file.name} is an image, not a catalog: drop it on an album's cover (or use Set cover…) to make it the cover.`, { error: true });
      continue;
    }
    if (model.busy) {
      showImportSummary(`${model.busy}: ${file.name} can be imported when it ends.`, { error: true });
      continue;
    }
    model.importing = true;
    setBusy(`Importing ${file.name}`);
    renderToolbar();
    try {
      const summary = await api('POST', `/api/import?name=${encodeURIComponent(file.name)}`, new Blob([file], { type: 'application/octet-stream' }));
      showImportSummary(`Imported ${file.name}${describeImport(summary)}.`);
      showStatus(`Imported ${file.name}.`);
      refreshSoon({ albums: true, session: true });
    } catch (error) {
      reportImportError(error);
    } finally {
      model.importing = false;
      setBusy(null);
      renderToolbar();
      endProgress();
    }
  }
}

$('import-file').addEventListener('click', () => $('import-file-input').click());
$('import-file-input').addEventListener('change', () => {
  const files = Array.from($('import-file-input').files);
  $('import-file-input').value = '';
  importFiles(files);
});

// An import's refusal in its summary, beside where the import was started, and in the status line.
function reportImportError(error) {
  const text = describeError(error, 'Could not import');
  showImportSummary(text, { error: true });
  showStatus(text, { error: true });
}

function showImportSummary(text, { error = false } = {}) {
  $('import-summary-text').textContent = text;
  $('import-summary').classList.toggle('error', error);
  $('import-summary').hidden = false;
}

$('import-summary-close').addEventListener('click', () => { $('import-summary').hidden = true; });

// ---------------------------------------------------------------------------------------------
// Import folder: a music folder on the server's machine, scanned as one undoable import. Its
// albums join the list when it commits; meanwhile each album whose folder has been read shows
// here with its cover (the newest first, the last SCAN_SHOWN of them).

const SCAN_SHOWN = 24;
const scan = { running: false, started: 0, found: 0, folder: '' };

function toggleFolderForm(open) {
  $('folder-form').hidden = !open;
  $('import-folder').setAttribute('aria-expanded', String(open));
  if (open) $('folder-path').focus();
}

$('import-folder').addEventListener('click', () => toggleFolderForm($('folder-form').hidden));
$('folder-cancel').addEventListener('click', () => toggleFolderForm(false));

$('folder-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const folder = $('folder-path').value.trim();
  if (!folder || scan.running || model.busy) return;
  toggleFolderForm(false);
  scan.running = true;
  scan.started = performance.now();
  scan.found = 0;
  scan.folder = folder;
  model.importing = true;
  setBusy(`Scanning ${folder}`);
  renderToolbar();
  $('scan-title').textContent = `Scanning ${folder}`;
  $('scan-status').textContent = 'Looking for audio files…';
  $('scan-albums').replaceChildren();
  $('scan-panel').hidden = false;
  showStatus(`Scanning ${folder}…`, { sticky: true });
  try {
    const summary = await api('POST', '/api/import-folder', { folder, prune: $('folder-prune').checked });
    showImportSummary(`Imported ${folder}: ${describeScan(summary)}.`);
    showStatus(`Imported ${folder}.`);
    refreshSoon({ albums: true, session: true });
  } catch (error) {
    reportImportError(error);
  } finally {
    scan.running = false;
    model.importing = false;
    setBusy(null);
    renderToolbar();
    $('scan-panel').hidden = true;
    endProgress();
  }
});

// Files read of those to read, the rate and the time left.
function showScanProgress({ done, total }) {
  if (!scan.running || typeof done !== 'number' || typeof total !== 'number') return;
  const seconds = (performance.now() - scan.started) / 1000;
  const rate = seconds > 0 ? done / seconds : 0;
  const parts = [`Reading tags: ${numberFormat.format(done)} of ${plural(total, 'file')}`];
  if (rate > 0) parts.push(`${numberFormat.format(Math.round(rate))} files/s`);
  if (rate > 0 && done < total) parts.push(`about ${Math.ceil((total - done) / rate)} s left`);
  if (done >= total) parts.push('writing the albums…');
  $('scan-status').textContent = parts.join(' · ');
}

// `album` is {title, artist, year, tracks, folder, cover}: cover is a URL or null.
function showScannedAlbum(album) {
  if (!scan.running) return;
  const item = element('li', 'scanned-album');
  const art = element('div', 'art');
  if (typeof album.cover === 'string' && album.cover.startsWith('/api/scan-covers/')) {
    const image = element('img');
    image.alt = '';
    image.src = album.cover;
    art.append(image);
  } else {
    art.style.backgroundColor = placeholderColour(scan.found);
    art.append(element('span', 'initials', initials(album)));
  }
  const year = typeof album.year === 'number' ? ` (${album.year})` : '';
  item.setAttribute('aria-label', `${album.title} by ${album.artist}${year}, ${plural(album.tracks, 'track')}`);
  item.title = album.folder;
  item.append(art, element('span', 'title', album.title), element('span', 'artist', album.artist));
  const list = $('scan-albums');
  list.prepend(item);
  while (list.children.length > SCAN_SHOWN) list.lastElementChild.remove();
  scan.found += 1;
  $('scan-title').textContent = `Scanning ${scan.folder}: ${plural(scan.found, 'album')} found`;
}

// A folder import's summary as `albumstore import FOLDER` says it.
function describeScan(summary) {
  const parts = [`${plural(summary.files_found ?? 0, 'file')} (${numberFormat.format(summary.files_read ?? 0)} read)`,
    `${plural(summary.albums_added ?? 0, 'album')} added`];
  if (summary.albums_updated) parts.push(`${numberFormat.format(summary.albums_updated)} updated`);
  if (summary.albums_unchanged) parts.push(`${numberFormat.format(summary.albums_unchanged)} unchanged`);
  if (summary.covers_set) parts.push(`${plural(summary.covers_set, 'cover')} set`);
  if (summary.albums_gone) parts.push(`${plural(summary.albums_gone, 'album')} whose files are gone`);
  const problems = Array.isArray(summary.problems) ? summary.problems : [];
  if (problems.length) {
    const first = problems[0];
    parts.push(`${plural(problems.length, 'file')} not taken whole (${first.path}: ${first.reason}${problems.length > 1 ? ', …' : ''})`);
  }
  return parts.join(', ');
}

// ---------------------------------------------------------------------------------------------
// Enrichment: the albums of the search looked up on MusicBrainz (a dry run), each proposal
// accepted or skipped here, then the accepted ones applied as one undoable command

const enrichment = { review: null };

async function lookUpEnrichment() {
  const button = $('enrich-lookup');
  button.disabled = true;
  showStatus('Looking up on MusicBrainz, one request a second…', { sticky: true });
  try {
    const answer = await api('POST', '/api/enrich/proposals', { q: search.query ?? '' });
    showEnrichReview(answer);
    showStatus(`MusicBrainz: ${plural(answer.proposals.length, 'proposal')} for ${plural(answer.albums_looked_up, 'album')} looked up.`);
  } catch (error) {
    reportError(error, 'Could not look up on MusicBrainz', 'search');
  } finally {
    button.disabled = false;
    endProgress();
  }
}

function showEnrichReview(answer) {
  enrichment.review = answer.review;
  const rows = answer.proposals.map((proposal) => {
    const row = element('tr');
    const box = element('input');
    box.type = 'checkbox';
    box.checked = true;
    box.value = proposal.id;
    box.setAttribute('aria-label', `Apply ${proposal.field} “${proposal.proposed}” to ${proposal.title}`);
    const cell = element('td');
    cell.append(box);
    const source = element('a', null, proposal.field === 'cover' ? 'Cover Art Archive' : 'MusicBrainz');
    source.href = proposal.source;
    source.target = '_blank';
    source.rel = 'noopener noreferrer';
    const sourceCell = element('td');
    sourceCell.append(source);
    row.append(cell, element('td', null, `${proposal.title} — ${proposal.artist}`), element('td', null, proposal.field),
      element('td', null, proposal.current ?? '(empty)'), element('td', null, proposal.proposed),
      element('td', null, proposal.score), sourceCell);
    return row;
  });
  $('enrich-proposals').replaceChildren(...rows);
  $('enrich-table').hidden = rows.length === 0;
  $('enrich-apply').hidden = rows.length === 0;
  const skipped = [];
  const name = (album) => `${album.title} — ${album.artist}`;
  for (const album of answer.not_found) skipped.push(`${name(album)}: not found`);
  for (const album of answer.ambiguous) skipped.push(`${name(album)}: ambiguous, ${album.reason}`);
  for (const album of answer.failures) skipped.push(`${name(album)}: ${album.reason}`);
  $('enrich-skipped').replaceChildren(...skipped.map((text) => element('li', null, text)));
  $('enrich-summary').textContent = rows.length === 0 ? 'Nothing to fill: every field found has a value already.' :
    'Only empty fields are proposed. Uncheck what you do not want; nothing changes until you apply.';
  $('enrich-review').hidden = false;
  $('enrich-heading').focus?.();
}

function closeEnrichReview() {
  enrichment.review = null;
  $('enrich-review').hidden = true;
  $('enrich-proposals').replaceChildren();
}

async function applyEnrichment() {
  if (!enrichment.review) return;
  const accept = [...$('enrich-proposals').querySelectorAll('input[type=checkbox]:checked')].map((box) => box.value);
  const button = $('enrich-apply');
  button.disabled = true;
  try {
    const answer = await api('POST', '/api/enrich/apply', { review: enrichment.review, accept });
    closeEnrichReview();
    const albums = new Set(answer.applied.map((id) => id.split('-')[0])).size;
    showStatus(answer.applied.length === 0 ? 'Nothing was applied.' :
      `Filled ${plural(answer.applied.length, 'field')} of ${plural(albums, 'album')}. Undo takes it back.`);
    refreshSoon({ albums: true, session: true });
    if (search.query !== null) runSearch(search.query);
  } catch (error) {
    reportError(error, 'Could not apply the proposals', 'search');
  } finally {
    button.disabled = false;
  }
}

$('enrich-lookup').addEventListener('click', lookUpEnrichment);
$('enrich-apply').addEventListener('click', applyEnrichment);
$('enrich-cancel').addEventListener('click', () => {
  closeEnrichReview();
  showStatus('Skipped every proposal: nothing changed.');
});

// ---------------------------------------------------------------------------------------------
// Search: the query language of `albumstore query`; a 400 marks the place it names

const SEARCH_LIMIT = 100;
const search = { query: null, sort: '', shown: 0, total: 0, timer: 0, asked: 0, loading: false };

// The first page of `query` (offset 0), or the next one.
async function runSearch(query, offset = 0) {
  const asked = ++search.asked;
  search.loading = true;
  const sort = search.sort ? `&sort=${encodeURIComponent(search.sort)}` : '';
  try {
    const answer = await api('GET', `/api/query?q=${encodeURIComponent(query)}&offset=${offset}&limit=${SEARCH_LIMIT}${sort}`);
    if (asked !== search.asked) return;
    clearQueryError();
    showMessage('search', '');
    search.query = query;
    const list = $('search-results');
    if (offset === 0) list.replaceChildren();
    for (const album of answer.albums) list.append(resultItem(album));
    search.shown = offset + answer.albums.length;
    search.total = answer.total;
    $('search-summary').textContent = answer.total === 0 ? 'No album matches.' :
      `${plural(answer.total, 'album')} match${answer.total === 1 ? 'es' : ''}${search.shown < answer.total ? `; showing ${numberFormat.format(search.shown)}` : ''}.`;
    $('search-more').hidden = search.shown >= answer.total;
    $('enrich-lookup').hidden = answer.total === 0;
    if (activeTab === 'search') updateURL();
    // Observed afresh: when the end is still in view after this page, the next one loads too.
    moreObserver.unobserve($('search-more'));
    moreObserver.observe($('search-more'));
  } catch (error) {
    if (asked !== search.asked) return;
    if (error.status === 400 && offset === 0) showQueryError(query, error);
    else reportError(error, 'Could not search', 'search');
  } finally {
    if (asked === search.asked) search.loading = false;
  }
}

function clearSearch() {
  search.asked += 1;
  search.loading = false;
  clearQueryError();
  $('search-results').replaceChildren();
  $('search-summary').textContent = '';
  $('search-more').hidden = true;
  $('enrich-lookup').hidden = true;
}

function resultItem(album) {
  const item = element('li');
  const button = element('button');
  button.type = 'button';
  button.dataset.id = String(album.id);
  const art = element('span', 'art r-art');
  drawArt(art, album);
  button.append(
    art,
    element('span', 'r-title', album.title),
    element('span', 'r-artist', album.artist),
    element('span', 'r-genre', album.genre ?? ''),
    element('span', 'r-year', album.year ?? ''),
  );
  button.addEventListener('click', () => chooseAlbumID(album.id));
  item.append(button);
  return item;
}

// Shows the error under the field, the query with the place it names marked.
function showQueryError(query, error) {
  $('search-error').hidden = false;
  $('search-error-message').textContent = error.message;
  $('search-input').setAttribute('aria-invalid', 'true');
  const marker = $('search-error-marker');
  marker.replaceChildren();
  const characters = graphemes(query);
  const { offset, length } = error.body;
  if (Number.isInteger(offset)) {
    const end = offset + Math.max(Number.isInteger(length) ? length : 0, 1);
    const mark = element('mark', null, characters.slice(offset, end).join('') || ' ');
    marker.append(document.createTextNode(characters.slice(0, offset).join('')), mark,
      document.createTextNode(characters.slice(end).join('')));
  }
  $('search-results').replaceChildren();
  $('search-summary').textContent = '';
  $('search-more').hidden = true;
}

// The server counts a query's characters as Swift does: user-perceived ones (🇫🇷 and e + ◌́ are
// one each), which Intl.Segmenter finds.
function graphemes(text) {
  if (typeof Intl.Segmenter !== 'function') return Array.from(text);
  return Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text), (part) => part.segment);
}

function clearQueryError() {
  $('search-error').hidden = true;
  $('search-input').removeAttribute('aria-invalid');
}

$('search-form').addEventListener('submit', (event) => {
  event.preventDefault();
  clearTimeout(search.timer);
  runSearch($('search-input').value);
});

// Searching as one types, once the typing pauses.
$('search-input').addEventListener('input', () => {
  clearTimeout(search.timer);
  search.timer = setTimeout(() => runSearch($('search-input').value), 250);
});

function searchMore() {
  if (search.query !== null && !search.loading && search.shown < search.total) runSearch(search.query, search.shown);
}

$('search-more').addEventListener('click', searchMore);

// The next results load as the list's end scrolls into view; the button stays for keyboards.
const moreObserver = new IntersectionObserver((entries) => {
  if (entries.some((entry) => entry.isIntersecting) && activeTab === 'search') searchMore();
}, { rootMargin: '400px' });
moreObserver.observe($('search-more'));

$('search-sort').addEventListener('change', () => {
  search.sort = $('search-sort').value;
  clearTimeout(search.timer);
  runSearch($('search-input').value);
});

// ---------------------------------------------------------------------------------------------
// Stats: bar charts as lists of links, each bar the search for its albums. Text is laid out by
// the browser, so labels and counts fit at any width and zoom; screen readers read each bar's
// name and count. While fresh numbers load, the last ones stay, dimmed.

const STATS_TOP = 25;
const stats = { asked: 0 };

// `items`: {name, albums, query}.
function barList(list, items, empty) {
  const max = Math.max(1, ...items.map((item) => item.albums));
  const rows = items.map((item) => {
    const row = element('li');
    const link = element('a', 'bar-row');
    link.href = `?${new URLSearchParams({ tab: 'search', q: item.query })}`;
    link.title = `Search ${item.query}`;
    link.addEventListener('click', (event) => {
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
      event.preventDefault();
      showSearch(item.query);
    });
    const bar = element('span', 'bar');
    bar.style.width = `${Math.max(0.5, (100 * item.albums) / max)}%`;
    const track = element('span', 'bar-track');
    track.setAttribute('aria-hidden', 'true');
    track.append(bar);
    link.append(element('span', 'bar-label', item.name), track, element('span', 'bar-value', numberFormat.format(item.albums)));
    row.append(link);
    return row;
  });
  if (rows.length === 0) rows.push(element('li', 'empty', empty));
  list.replaceChildren(...rows);
}

// A query's value quoted when it holds a space or a quote; an exact match of the whole value.
function exactTerm(field, value) {
  const text = String(value);
  return /[\s"',]/u.test(text) ? `${field}:="${text.replaceAll('"', '\\"')}"` : `${field}:=${text}`;
}

async function loadStats() {
  const asked = ++stats.asked;
  $('charts').setAttribute('aria-busy', 'true');
  $('charts').classList.add('loading');
  if (!$('stats-summary').textContent) $('stats-summary').textContent = 'Counting…';
  try {
    const answer = await api('GET', `/api/stats?top=${STATS_TOP}`);
    if (asked !== stats.asked) return;
    showMessage('stats', '');
    $('stats-summary').textContent =
      `${plural(answer.albums, 'album')} by ${plural(answer.artists, 'artist')} in ${plural(answer.genres, 'genre')}` +
      (answer.without_year ? `; ${numberFormat.format(answer.without_year)} without a year.` : '.');
    const decades = (answer.decades || []).map((decade) => ({
      name: `${decade.decade}s`, albums: decade.albums, query: `year:${decade.decade}..${decade.decade + 9}`,
    }));
    barList($('chart-decades'), decades, 'No albums with a year');
    barList($('chart-genres'), (answer.top_genres || []).map((item) => ({ ...item, query: exactTerm('genre', item.name) })), 'No albums with a genre');
    barList($('chart-artists'), (answer.top_artists || []).map((item) => ({ ...item, query: exactTerm('artist', item.name) })), 'No albums');
  } catch (error) {
    if (asked === stats.asked) reportError(error, 'Could not count the albums', 'stats');
  } finally {
    if (asked === stats.asked) {
      $('charts').removeAttribute('aria-busy');
      $('charts').classList.remove('loading');
    }
  }
}

// The Search tab showing `query`: a chart bar's link.
function showSearch(query) {
  $('search-input').value = query;
  search.query = query;
  selectTab('search', { push: true });
}

// ---------------------------------------------------------------------------------------------
// History: the undo history, and the session-state snapshots (take, diff, restore)

// The latest entries only, until "Show all": on a phone the snapshots come after the history.
const HISTORY_SHOWN = 8;
const historyView = { all: false };

async function loadHistory() {
  try {
    const [entries, snapshots] = await Promise.all([api('GET', '/api/history'), api('GET', '/api/snapshots')]);
    showMessage('history', '');
    const list = $('history-list');
    list.replaceChildren();
    const newest = entries.slice().reverse();
    for (const entry of historyView.all ? newest : newest.slice(0, HISTORY_SHOWN)) {
      const item = element('li', entry.is_undone ? 'undone' : null);
      item.append(element('span', 'description', entry.description), timeElement(entry.date));
      if (entry.is_undone) item.title = 'Undone: Redo does it again';
      list.append(item);
    }
    if (entries.length === 0) list.append(element('li', 'empty', 'Nothing to undo yet.'));
    const more = $('history-all');
    more.hidden = historyView.all || entries.length <= HISTORY_SHOWN;
    more.textContent = `Show all ${plural(entries.length, 'entry', 'entries')}`;
    renderSnapshots(snapshots);
  } catch (error) {
    reportError(error, 'Could not read the history', 'history');
  }
}

function timeElement(text) {
  const time = element('time', null, formatDate(text));
  time.dateTime = text || '';
  return time;
}

function renderSnapshots(snapshots) {
  const list = $('snapshot-list');
  list.replaceChildren();
  for (const snapshot of snapshots.slice().reverse()) {
    const item = element('li');
    const diff = element('button', null, 'Diff');
    diff.type = 'button';
    diff.setAttribute('aria-label', `What changed since snapshot ${snapshot.name}`);
    diff.addEventListener('click', () => showSnapshotDiff(snapshot.name));
    const restore = element('button', null, 'Restore');
    restore.type = 'button';
    restore.setAttribute('aria-label', `Restore snapshot ${snapshot.name}`);
    restore.addEventListener('click', () => restoreSnapshot(snapshot.name));
    item.append(element('span', 'name', snapshot.name), timeElement(snapshot.taken_at), diff, restore);
    list.append(item);
  }
  if (snapshots.length === 0) list.append(element('li', 'empty', 'No snapshots yet: a snapshot keeps the current album, the tab order and the keys.'));
}

async function takeSnapshot(name) {
  try {
    const snapshot = await api('POST', '/api/snapshots', name ? { name } : {});
    showStatus(`Took snapshot “${snapshot.name}”.`);
    $('snapshot-name').value = '';
    loadHistory();
  } catch (error) {
    reportError(error, 'Could not take the snapshot', 'history');
  }
}

async function showSnapshotDiff(name) {
  try {
    const differences = await api('GET', `/api/snapshots/${encodeURIComponent(name)}/diff`);
    $('snapshot-diff').hidden = false;
    $('snapshot-diff-title').textContent = `Changed since “${name}”`;
    const list = $('snapshot-diff-list');
    list.replaceChildren();
    for (const difference of differences) {
      list.append(element('li', null, `${difference.item}: ${describeValue(difference.before)} → ${describeValue(difference.after)}`));
    }
    if (differences.length === 0) list.append(element('li', 'empty', 'Nothing changed.'));
  } catch (error) {
    reportError(error, `Could not compare with “${name}”`, 'history');
  }
}

// A state value in a few words: the current album as its place, a list as its items.
function describeValue(value) {
  if (value === null || value === undefined) return 'none';
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object' && 'index' in value) return `#${value.index} (album ${value.album_id})`;
  return JSON.stringify(value);
}

async function restoreSnapshot(name) {
  try {
    await api('POST', `/api/snapshots/${encodeURIComponent(name)}/restore`, {});
    showStatus(`Restored snapshot “${name}”. Undo takes it back.`);
    $('snapshot-diff').hidden = true;
    refreshSoon({ albums: true, session: true });
  } catch (error) {
    reportError(error, `Could not restore “${name}”`, 'history');
  }
}

$('history-all').addEventListener('click', () => {
  historyView.all = true;
  loadHistory();
});

$('snapshot-form').addEventListener('submit', (event) => {
  event.preventDefault();
  takeSnapshot($('snapshot-name').value.trim());
});

// ---------------------------------------------------------------------------------------------
// Live: /api/events. A change refreshes what is shown; a burst of changes, one refresh.

const pending = { albums: false, session: false, timer: 0, running: false };

// What a change set touches: the albums (and covers), or the session state.
function refreshSoon({ albums = false, session = false }) {
  pending.albums ||= albums;
  pending.session ||= session;
  if (pending.timer || pending.running) return;
  pending.timer = setTimeout(runRefresh, 120);
}

async function runRefresh() {
  pending.timer = 0;
  pending.running = true;
  const { albums, session } = pending;
  pending.albums = false;
  pending.session = false;
  try {
    if (albums) invalidatePages();
    const jobs = [loadLibrary(), loadCurrent()];
    if (session) jobs.push(loadTabs());
    await Promise.all(jobs);
    refreshTab(activeTab);
  } catch (error) {
    reportError(error, 'Could not refresh', null);
  } finally {
    pending.running = false;
    if (pending.albums || pending.session) pending.timer = setTimeout(runRefresh, 120);
  }
}

function refreshTab(id) {
  if (id === 'search' && search.query !== null) runSearch(search.query);
  else if (id === 'stats') loadStats();
  else if (id === 'history') loadHistory();
}

function listen() {
  const events = new EventSource('/api/events');
  let lost = false;
  events.addEventListener('open', async () => {
    // Changes made while the connection was down were not seen: catch up on all of them. A
    // restarted server has a new token: the page takes it before it says it is back.
    if (lost) {
      lost = false;
      await refreshToken();
      refreshSoon({ albums: true, session: true });
      showStatus('Connected to the server again.');
    }
    document.body.dataset.live = 'open';
  });
  // EventSource reconnects by itself; the page says so meanwhile.
  events.addEventListener('error', () => {
    document.body.dataset.live = 'closed';
    if (!lost) showStatus('Lost the connection to albumstore serve; reconnecting…', { error: true });
    lost = true;
  });
  events.addEventListener('change', (event) => {
    let change = {};
    try { change = JSON.parse(event.data); } catch { change = { is_overflow: true }; }
    const tables = change.tables || {};
    const overflow = Boolean(change.is_overflow);
    refreshSoon({
      albums: overflow || 'albums' in tables || 'covers' in tables,
      session: overflow || 'session_state' in tables || 'session_snapshots' in tables,
    });
  });
  events.addEventListener('job', (event) => {
    try { setBusy(JSON.parse(event.data).busy); } catch { /* a malformed event changes nothing */ }
  });
  events.addEventListener('progress', (event) => {
    try { showProgress(JSON.parse(event.data)); } catch { /* a malformed event shows nothing */ }
  });
  events.addEventListener('scanned', (event) => {
    try { showScannedAlbum(JSON.parse(event.data)); } catch { /* a malformed event shows nothing */ }
  });
}

// ---------------------------------------------------------------------------------------------
// Start: the library, the tab order and the current album, then live updates

async function start() {
  listen();
  try {
    const [, tabs, current] = await Promise.all([loadLibrary(), api('GET', '/api/state/tabs'), api('GET', '/api/state/current')]);
    savedTabs = normalizeTabs(tabs.tabs);
    applyTabOrder(savedTabs);
    applyCurrent(current, { scroll: true });
    await applyURL({ atStart: true });
    document.body.dataset.state = 'ready';
  } catch (error) {
    reportError(error, 'Could not load the library');
    document.body.dataset.state = 'failed';
  }
}

start();
