// The Chrome trace in an offline viewer (tests/viewer.sh, issue 20).
//
// node viewer.cjs NODE_MODULES BROWSER LIST OUTDIR
//
// speedscope (the npm package's built app, dist/release) is served from
// 127.0.0.1 with the traces LIST names (a file a line, then a TAB and
// "strict" where every slice must nest), and BROWSER, headless, opens
// each as a user would, by URL (index.html#profileURL=...).  Nothing is
// fetched from anywhere else: a request that leaves the server is
// refused and fails the test.  For each trace it checks that:
//  - speedscope imports it: its toolbar names the trace and the number of
//    threads it made a timeline of, one per (pid, tid) holding slices in
//    the file, and it shows no error;
//  - the flame chart is drawn: the chart area of a screenshot is not
//    blank;
//  - no page error is raised;
//  - for a strict trace, speedscope's import warns of no slice that does
//    not nest (one ended while another was open above it, or still open
//    at the end).
// speedscope 1.25 cannot import a slice name of some thousand characters
// (Triton and C++ template kernels), nor a long string among the args
// (part of its frame key): prof-render -f chrome cuts names to 256
// bytes and does not repeat them there, so every export loads.
// It writes OUTDIR/N.png for each and prints a line per trace: N, the
// threads, the warnings, the seconds to show it, the share of the page
// drawn (%).  Exit 1 when a check failed.
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');
const nm = process.argv[2];
const { chromium } = require(path.join(nm, 'playwright-core'));
const app = path.join(nm, 'speedscope', 'dist', 'release');
const list = fs.readFileSync(process.argv[4], 'utf8').split('\n')
    .filter((l) => l !== '').map((l) => l.split('\t'));
const traces = list.map((l) => l[0]);
const outdir = process.argv[5];
const mime = { '.html': 'text/html', '.js': 'text/javascript',
    '.css': 'text/css', '.json': 'application/json',
    '.wasm': 'application/wasm', '.png': 'image/png' };

// The number of threads speedscope should make a timeline of (one per
// (pid, tid) with slices), and the longest slice name.
function expected(file) {
	const t = JSON.parse(fs.readFileSync(file, 'utf8'));
	const ev = Array.isArray(t) ? t : t.traceEvents;
	const th = new Set();
	let longest = 0;
	for (const e of ev)
		if (e.ph === 'X' || e.ph === 'B' || e.ph === 'E') {
			th.add(e.pid + ':' + e.tid);
			longest = Math.max(longest, (e.name || '').length);
		}
	return { threads: th.size, longest };
}

function serve() {
	const srv = http.createServer((req, res) => {
		const u = decodeURIComponent(req.url.split(/[?#]/)[0]);
		let f;
		const m = /^\/trace\/(\d+)\.json$/.exec(u);
		if (m)
			f = traces[Number(m[1])];
		else
			f = path.join(app, path.normalize(u === '/' ?
			    '/index.html' : u));
		fs.readFile(f || '', (err, data) => {
			if (err) {
				res.writeHead(404);
				res.end();
				return;
			}
			res.writeHead(200, { 'content-type':
			    mime[path.extname(f)] || 'application/octet-stream' });
			res.end(data);
		});
	});
	return new Promise((ok) => srv.listen(0, '127.0.0.1', () => ok(srv)));
}

// The share of the chart area's pixels that are not the background, and
// the number of colours there, from the screenshot drawn in the page.
async function ink(page, png) {
	return page.evaluate(async (url) => {
		const img = new Image();
		img.src = url;
		await img.decode();
		const c = document.createElement('canvas');
		c.width = img.width;
		c.height = img.height;
		const g = c.getContext('2d');
		g.drawImage(img, 0, 0);
		// below the toolbar; the background is the commonest colour
		const y0 = 24;
		const d = g.getImageData(0, y0, img.width, img.height - y0).data;
		const count = new Map();
		let n = 0;
		for (let i = 0; i < d.length; i += 4 * 7) {
			const p = d[i] + ',' + d[i + 1] + ',' + d[i + 2];
			count.set(p, (count.get(p) || 0) + 1);
			n++;
		}
		const bg = Math.max(...count.values());
		const colours = count.size;
		const inked = n - bg;
		return { share: inked / n, colours };
	}, 'data:image/png;base64,' + png.toString('base64'));
}

async function main() {
	const srv = await serve();
	const base = `http://127.0.0.1:${srv.address().port}`;
	const browser = await chromium.launch({
		executablePath: process.argv[3], headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic',
		    '--no-first-run', '--disable-background-networking',
		    '--disable-component-update', '--disable-sync'],
	});
	let failed = 0;
	for (let i = 0; i < traces.length; i++) {
		const want = expected(traces[i]);
		const strict = list[i][1] === 'strict';
		const page = await browser.newPage({
			viewport: { width: 1280, height: 800 } });
		const warn = [], errors = [];
		page.on('console', (m) => {
			if (m.type() === 'warning' && /Tried to end|still open/
			    .test(m.text()))
				warn.push(m.text());
			else if (m.type() === 'error')
				errors.push('console: ' + m.text());
		});
		page.on('pageerror', (e) => errors.push('page: ' + e.message));
		await page.route('**/*', (r) => {
			if (r.request().url().startsWith(base + '/'))
				return r.continue();
			errors.push('outside request: ' + r.request().url());
			return r.abort();
		});
		const title = 'trace' + i;
		const t0 = Date.now();
		await page.goto(`${base}/index.html#profileURL=` +
		    encodeURIComponent(`${base}/trace/${i}.json`) +
		    `&title=${title}`);
		const bad = (why) => {
			console.log(`FAIL: ${traces[i]}: ${why}`);
			failed = 1;
		};
		// shown: the title in the toolbar, an error, or 60 s gone
		let shown = '';
		const done = new RegExp('^' + title + '( \\(1/\\d+\\))?$', 'm');
		while (Date.now() - t0 < 60000 && !errors.length) {
			shown = await page.evaluate(() => document.body.innerText);
			if (done.test(shown) || /went wrong/.test(shown))
				break;
			await page.waitForTimeout(200);
		}
		if (!done.test(shown) && !/went wrong/.test(shown))
			bad(errors.length ? 'speedscope stopped' :
			    'speedscope did not show the trace within 60 s');
		// one thread: the title alone; more: "title (1/N)"
		const m = new RegExp('^' + title + '(?: \\(1/(\\d+)\\))?$', 'm')
		    .exec(shown);
		const nthreads = m ? Number(m[1] || 1) : 0;
		if (/went wrong/.test(shown))
			bad('speedscope: ' + shown.split('\n').slice(0, 2).join(' '));
		else if (shown && !m)
			bad(`the toolbar does not show '${title} (1/N)'`);
		else if (m && nthreads !== want.threads)
			bad(`speedscope made ${nthreads} thread timelines, the file ` +
			    `has ${want.threads} threads with slices`);
		const secs = ((Date.now() - t0) / 1000).toFixed(1);
		await page.waitForTimeout(300);
		const png = await page.screenshot();
		fs.writeFileSync(path.join(outdir, i + '.png'), png);
		const k = await ink(page, png);
		if (k.share < 0.002 || k.colours < 4)
			bad(`the flame chart is blank (${(100 * k.share).toFixed(2)}` +
			    `% inked, ${k.colours} colours)`);
		for (const e of errors)
			bad(e);
		if (strict && warn.length)
			bad(`${warn.length} slices do not nest in speedscope`);
		console.log(`${i} ${nthreads} ${warn.length} ${secs} ` +
		    `${(100 * k.share).toFixed(1)}`);
		for (const w of warn.slice(0, 3))
			console.log('  warning: ' + w.slice(0, 300));
		await page.close();
	}
	await browser.close();
	srv.close();
	process.exit(failed);
}

main().catch((e) => {
	console.error('viewer: ' + e.message);
	process.exit(1);
});
