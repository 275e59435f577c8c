# Sourced by the tests that run a program from the npm registry
# (tests/duckdb.sh, tests/viewer.sh), after tests/lib.sh.
#
# npm_need SPEC...: each SPEC (name@version, the version exact) is
# installed under $npm_dir/node_modules (in the build tree, so make
# distclean removes it), with npm when it is not there yet.  Skips the
# test (77) when node or npm is missing or npm cannot reach its registry;
# any other failure of npm fails the test.
npm_dir=$top_builddir/tests/npm
npm_need() {
	command -v node >/dev/null 2>&1 ||
	    skip_ "no node (.ci/run installs Debian's nodejs and npm)"
	_missing=
	for _spec in "$@"; do
		_have=$(node -p "require('$npm_dir/node_modules/${_spec%@*}/package.json').version" 2>/dev/null) || _have=
		[ "$_have" = "${_spec##*@}" ] || _missing="$_missing $_spec"
	done
	[ -z "$_missing" ] && return 0
	command -v npm >/dev/null 2>&1 ||
	    skip_ "no npm to install$_missing (.ci/run installs Debian's npm)"
	mkdir -p "$npm_dir"
	[ -f "$npm_dir/package.json" ] ||
	    echo '{ "private": true, "description": "proftools test tools" }' \
	    >"$npm_dir/package.json"
	echo "npm: installing$_missing into $npm_dir"
	# shellcheck disable=SC2086
	if ! npm install --prefix "$npm_dir" --no-audit --no-fund \
	    --loglevel=error $_missing >"$npm_dir/install.log" 2>&1; then
		npm ping >/dev/null 2>&1 ||
		    skip_ "npm cannot reach its registry to install$_missing"
		cat "$npm_dir/install.log"
		fail_ "npm install$_missing failed"
	fi
}
