#!/usr/bin/env bash
# Rebuilds bot/site/static/vendor/noble.js, the one third-party script of the campaign site: @noble/curves (BLS12-381,
# to check drand beacons in the reader's browser) and @noble/hashes (SHA-256, HMAC), at the pinned versions below,
# bundled by a pinned esbuild into one plain script that defines window.noble. The bundle and the libraries'
# licences are committed, so neither CI nor a fresh clone needs npm; run this only to change a version.
set -euo pipefail
cd "$(dirname "$0")/.."

NOBLE_CURVES=1.9.7
NOBLE_HASHES=1.8.0
ESBUILD=0.25.12

out=bot/site/static/vendor
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cat >"$work/package.json" <<JSON
{"name": "legatus-site-bundle", "private": true, "version": "0.0.0",
 "dependencies": {"@noble/curves": "$NOBLE_CURVES", "@noble/hashes": "$NOBLE_HASHES", "esbuild": "$ESBUILD"}}
JSON
cat >"$work/entry.js" <<'JS'
import { bls12_381 } from "@noble/curves/bls12-381";
import { sha256 } from "@noble/hashes/sha2";
import { hmac } from "@noble/hashes/hmac";
window.noble = { bls12_381, sha256, hmac };
JS
(cd "$work" && npm install --no-audit --no-fund --ignore-scripts --save-exact >/dev/null \
    && npm rebuild esbuild >/dev/null \
    && ./node_modules/.bin/esbuild entry.js --bundle --minify --format=iife --target=es2020 \
        --legal-comments=none --outfile=noble.js)
{
    echo "/* @noble/curves $NOBLE_CURVES and @noble/hashes $NOBLE_HASHES (MIT, Paul Miller: see LICENSE-noble-curves,"
    echo "   LICENSE-noble-hashes), bundled by esbuild $ESBUILD with scripts/bundle_site_js.sh. Do not edit. */"
    cat "$work/noble.js"
} >"$out/noble.js"
cp "$work/node_modules/@noble/curves/LICENSE" "$out/LICENSE-noble-curves"
cp "$work/node_modules/@noble/hashes/LICENSE" "$out/LICENSE-noble-hashes"
echo "wrote $out/noble.js ($(wc -c <"$out/noble.js") bytes)"
