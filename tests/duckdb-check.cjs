// DuckDB on prof-export's outputs (tests/duckdb.sh, issue 20).
//
// node duckdb-check.cjs NODE_MODULES LIST
//
// LIST names one directory a line, each holding s.db (prof-export -f
// sqlite), s.jsonl (prof-export -f jsonl) and s.tsv (the stream).  Into
// each it writes, one file per route, DuckDB's answer to "kernel time per
// device" as dev|kernels|sum lines, for tests/duckdb.sh to compare with
// sqlite3's and awk's:
//   attach  the SQLite export ATTACHed through DuckDB's sqlite extension,
//           when DuckDB can load it (installed, or its extension
//           repository reachable);
//   scan    otherwise the same file read as that extension reads it:
//           each column typed from its declared type by the extension's
//           rules (duckdb-sqlite, src/sqlite_utils.cpp: TypeToLogicalType),
//           every value checked as its scan checks it (an INTEGER column
//           holds integers, a REAL column numbers, a TEXT column text, or
//           NULL: anything else is an error there), the rows copied by
//           sqlite3 -json, and the file's views created from their own
//           SQL, which the extension also hands to DuckDB's parser;
//   jsonl   read_json over the JSON Lines export, types detected;
//   tsv     read_csv over the stream, as prof-tsv(5)'s recipe writes it.
// Every view of the SQLite file is also selected in full, so a view whose
// SQL SQLite takes and DuckDB does not fails here.  Exit 1, with the
// reason on standard error, on any failure.
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { DuckDBInstance } = require(path.join(process.argv[2],
    '@duckdb/node-api'));

const dirs = fs.readFileSync(process.argv[3], 'utf8').split('\n')
    .filter((l) => l !== '');

// The sqlite extension's type for a declared SQLite column type.
function duckType(decl) {
	const t = decl.toLowerCase();
	const has = (...w) => w.some((x) => t.includes(x));
	if (has('int', 'bool')) return 'BIGINT';
	if (has('char', 'clob', 'text')) return 'VARCHAR';
	if (has('blob') || t === '') return 'BLOB';
	if (has('real', 'floa', 'doub')) return 'DOUBLE';
	if (t === 'date') return 'DATE';
	if (has('time')) return 'TIMESTAMP';
	if (has('dec', 'num')) return 'DOUBLE';
	return 'VARCHAR';
}
// The storage classes its scan accepts in a column of that type.
const accepts = {
	BIGINT: ['integer'], DOUBLE: ['integer', 'real'], VARCHAR: ['text'],
	BLOB: ['blob', 'integer', 'real', 'text'],
};

const sqlite = (db, sql) => JSON.parse(execFileSync('sqlite3',
    ['-json', '-readonly', db, sql], { maxBuffer: 1 << 30 })
    .toString() || '[]');
const qi = (s) => '"' + s.replace(/"/g, '""') + '"';
const ql = (s) => "'" + s.replace(/'/g, "''") + "'";
const kernelSQL = 'SELECT dev, count(*) AS n, sum(dur_ns) AS s FROM ';

async function rows(c, sql) {
	return (await c.runAndReadAll(sql)).getRows();
}
function lines(r) {
	return r.map((x) => x.map(String).join('|')).sort().join('\n') +
	    (r.length ? '\n' : '');
}

// The SQLite file in DuckDB as its sqlite extension would show it,
// without the extension: returns the names of the views.
async function scanInto(c, db, dir) {
	const tabs = sqlite(db, "SELECT name FROM sqlite_master WHERE " +
	    "type = 'table' AND name NOT LIKE 'sqlite_%'");
	for (const { name } of tabs) {
		const cols = sqlite(db, `PRAGMA table_info(${qi(name)})`);
		const types = cols.map((col) => duckType(col.type));
		for (let i = 0; i < cols.length; i++) {
			const bad = sqlite(db, `SELECT typeof(${qi(cols[i].name)}) ` +
			    `AS t, count(*) AS n FROM ${qi(name)} WHERE typeof(` +
			    `${qi(cols[i].name)}) NOT IN ('null', ` +
			    accepts[types[i]].map(ql).join(', ') +
			    ') GROUP BY 1');
			for (const b of bad)
				throw new Error(`${name}.${cols[i].name}, declared ` +
				    `${cols[i].type} (DuckDB ${types[i]}), holds ${b.n} ` +
				    `${b.t} values: DuckDB's sqlite scan refuses them`);
		}
		await c.run(`CREATE TABLE ${qi(name)} (` + cols.map((col, i) =>
		    qi(col.name) + ' ' + types[i]).join(', ') + ')');
		const out = path.join(dir, 'rows.json');
		fs.writeFileSync(out, execFileSync('sqlite3', ['-json',
		    '-readonly', db, `SELECT * FROM ${qi(name)}`],
		    { maxBuffer: 1 << 30 }));
		if (fs.statSync(out).size === 0)
			continue;
		await c.run(`INSERT INTO ${qi(name)} SELECT * FROM read_json(` +
		    `${ql(out)}, format = 'array', columns = {` +
		    cols.map((col, i) => ql(col.name) + ': ' + ql(types[i]))
		    .join(', ') + '})');
		fs.unlinkSync(out);
	}
	const views = sqlite(db, "SELECT name, sql FROM sqlite_master " +
	    "WHERE type = 'view'");
	for (const v of views) {
		try {
			await c.run(v.sql);
		} catch (e) {
			throw new Error(`view ${v.name}: DuckDB cannot create it ` +
			    `from its SQL: ${e.message.split('\n')[0]}`);
		}
	}
	return views.map((v) => v.name);
}

async function views(c, names, prefix) {
	for (const v of names) {
		try {
			await rows(c, `SELECT count(*) FROM ${prefix}${qi(v)}`);
		} catch (e) {
			throw new Error(`view ${v}: DuckDB cannot read it: ` +
			    e.message.split('\n')[0]);
		}
	}
}

async function main() {
	const inst = await DuckDBInstance.create(':memory:');
	const c = await inst.connect();
	const ver = (await rows(c, 'SELECT version()'))[0][0];
	let attach = true;
	try {
		await c.run('LOAD sqlite');
	} catch (e1) {
		try {
			await c.run('INSTALL sqlite');
			await c.run('LOAD sqlite');
		} catch (e2) {
			attach = false;
			console.error(`note: DuckDB ${ver} has no sqlite extension ` +
			    'built in and cannot install it (' +
			    e2.message.split('\n')[0].replace(/ at URL.*/, '') +
			    '): the ' +
			    'SQLite file is read as the extension reads it (route ' +
			    '"scan"), not by the extension');
		}
	}
	console.log(`duckdb ${ver} ${attach ? 'attach' : 'scan'}`);
	for (const dir of dirs) {
		const db = path.join(dir, 's.db');
		const hasKernel = sqlite(db, "SELECT name FROM sqlite_master " +
		    "WHERE name = 'kernel'").length > 0;
		// The SQLite file: through the extension, or as it reads it.
		const d = await (await DuckDBInstance.create(':memory:')).connect();
		try {
			if (attach) {
				await d.run('LOAD sqlite');
				await d.run(`ATTACH ${ql(db)} AS run (TYPE sqlite, ` +
				    'READ_ONLY)');
				const names = sqlite(db, "SELECT name FROM " +
				    "sqlite_master WHERE type = 'view'").map((v) => v.name);
				await views(d, names, 'run.');
				fs.writeFileSync(path.join(dir, 'attach'), hasKernel ?
				    lines(await rows(d, kernelSQL + 'run.kernel ' +
				    'GROUP BY dev')) : '');
			} else {
				await views(d, await scanInto(d, db, dir), '');
				fs.writeFileSync(path.join(dir, 'scan'), hasKernel ?
				    lines(await rows(d, kernelSQL + 'kernel GROUP BY ' +
				    'dev')) : '');
			}
		} catch (e) {
			throw new Error(`${dir}: ${e.message}`);
		} finally {
			d.closeSync();
		}
		// JSON Lines, types detected over every record.
		const jl = ql(path.join(dir, 's.jsonl'));
		const jt = await rows(c, `SELECT column_type FROM (DESCRIBE ` +
		    `SELECT * FROM read_json(${jl}, format = ` +
		    `'newline_delimited', sample_size = -1)) WHERE column_name ` +
		    "= 'dur_ns'");
		if (hasKernel && (jt.length !== 1 || jt[0][0] !== 'BIGINT'))
			throw new Error(`${dir}: read_json types dur_ns as ` +
			    `${jt.length ? jt[0][0] : 'nothing'}, want BIGINT`);
		fs.writeFileSync(path.join(dir, 'jsonl'), hasKernel ?
		    lines(await rows(c, kernelSQL + `read_json(${jl}, format = ` +
		    `'newline_delimited', sample_size = -1) WHERE kind = ` +
		    "'kernel' GROUP BY dev")) : '');
		// The stream, as prof-tsv(5) says to read it.
		const tsv = path.join(dir, 's.tsv');
		const skip = fs.readFileSync(tsv, 'utf8').split('\n')
		    .findIndex((l) => !l.startsWith('#'));
		fs.writeFileSync(path.join(dir, 'tsv'), lines(await rows(c,
		    kernelSQL + `read_csv(${ql(tsv)}, delim = '\t', header = ` +
		    `true, skip = ${skip}, quote = '', escape = '', types = {` +
		    "'ts_ns': 'BIGINT', 'dur_ns': 'BIGINT', 'wait_ns': " +
		    "'BIGINT', 'dev': 'VARCHAR', 'track': 'VARCHAR', 'pid': " +
		    "'VARCHAR', 'corr': 'VARCHAR', 'ext': 'VARCHAR', 'group': " +
		    "'VARCHAR', 'step': 'VARCHAR'}) WHERE kind = 'kernel' " +
		    'GROUP BY dev')));
	}
	c.closeSync();
}

main().catch((e) => {
	console.error('duckdb-check: ' + e.message);
	process.exit(1);
});
