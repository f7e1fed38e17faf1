/* Legatus: the campaign checked in the reader's browser, from the public log alone.
 *
 * Nothing here trusts the server that sent the page: the log is re-hashed exactly as engine/ledger.py hashes it
 * (canonical JSON: engine/canonical.py), every drand beacon is checked against quicknet's key pinned below (as in
 * engine/chance/drand.py), every die is derived again from the public value the log recorded (engine/chance/derive.py,
 * engine/dice.py), and every binding is held to its draw's or round's time. What the server claims (the ledger's
 * labels and ranges, which event bound each roll, the head) is compared with what the log itself gives.
 * window.legatusVerify(logText, site) returns the checks; the page shows them (renderChecks).
 */
(function () {
  "use strict";

  // quicknet, pinned: never read from the page's data (engine/chance/drand.py QUICKNET).
  var QUICKNET = {
    hash: "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
    publicKey: "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc2" +
      "2b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
    genesis: 1692803367,
    period: 3
  };
  var DST = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_";
  var GENESIS_HEAD = "0000000000000000000000000000000000000000000000000000000000000000";
  var LOTTERY_MARGIN_S = 600; // engine/lotto.py BINDING_MARGIN
  var DRAND_MARGIN_S = 6; // engine/verify.py DRAND_MARGIN: two quicknet periods
  var MIX_TAG = "@drand:";
  var SPACE = 4294967296;

  // --- canonical JSON (engine/canonical.py: sort_keys, ensure_ascii=False, separators (",", ":")) ---------------

  function Num(lexeme) { this.lexeme = lexeme; }

  function parseJSON(text) {
    var i = 0;
    function fail(what) { throw new Error(what + " at character " + i); }
    function ws() { while (i < text.length && " \t\n\r".indexOf(text[i]) >= 0) i++; }
    function value() {
      ws();
      var c = text[i];
      if (c === "{") {
        i++; var obj = Object.create(null); ws();
        if (text[i] === "}") { i++; return obj; }
        for (;;) {
          ws(); if (text[i] !== "\"") fail("a key expected");
          var key = string(); ws(); if (text[i] !== ":") fail("':' expected"); i++;
          obj[key] = value(); ws();
          if (text[i] === ",") { i++; continue; }
          if (text[i] === "}") { i++; return obj; }
          fail("',' or '}' expected");
        }
      }
      if (c === "[") {
        i++; var arr = []; ws();
        if (text[i] === "]") { i++; return arr; }
        for (;;) {
          arr.push(value()); ws();
          if (text[i] === ",") { i++; continue; }
          if (text[i] === "]") { i++; return arr; }
          fail("',' or ']' expected");
        }
      }
      if (c === "\"") return string();
      if (text.startsWith("true", i)) { i += 4; return true; }
      if (text.startsWith("false", i)) { i += 5; return false; }
      if (text.startsWith("null", i)) { i += 4; return null; }
      var m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
      if (!m) fail("a value expected");
      i += m[0].length;
      return new Num(m[0]);
    }
    function string() {
      var start = i; i++;
      while (i < text.length && text[i] !== "\"") { if (text[i] === "\\") i++; i++; }
      if (i >= text.length) fail("an unterminated string");
      i++;
      return JSON.parse(text.slice(start, i));
    }
    var out = value(); ws();
    if (i !== text.length) fail("text after the value");
    return out;
  }

  // Python's repr of a float (json.dumps writes floats so): shortest digits, exponent form outside 1e-4..1e16.
  function pyFloat(x) {
    if (x !== x) return "NaN";
    if (x === Infinity) return "Infinity";
    if (x === -Infinity) return "-Infinity";
    var sign = x < 0 || (x === 0 && 1 / x < 0) ? "-" : "";
    var parts = Math.abs(x).toExponential().split("e");
    var digits = parts[0].replace(".", ""), exp = parseInt(parts[1], 10);
    if (exp >= -4 && exp < 16) {
      var point = exp + 1;
      var body;
      if (point <= 0) body = "0." + "0".repeat(-point) + digits;
      else if (point >= digits.length) body = digits + "0".repeat(point - digits.length) + ".0";
      else body = digits.slice(0, point) + "." + digits.slice(point);
      return sign + body;
    }
    var mantissa = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
    var e = Math.abs(exp) < 10 ? "0" + Math.abs(exp) : String(Math.abs(exp));
    return sign + mantissa + "e" + (exp < 0 ? "-" : "+") + e;
  }

  function numText(n) {
    if (/^-?\d+$/.test(n.lexeme)) return BigInt(n.lexeme).toString();
    return pyFloat(Number(n.lexeme));
  }

  function byCodePoint(a, b) {
    var x = Array.from(a), y = Array.from(b);
    for (var k = 0; k < Math.min(x.length, y.length); k++) {
      var d = x[k].codePointAt(0) - y[k].codePointAt(0);
      if (d) return d;
    }
    return x.length - y.length;
  }

  function canonical(v) {
    if (v === null) return "null";
    if (v === true) return "true";
    if (v === false) return "false";
    if (v instanceof Num) return numText(v);
    if (typeof v === "number") return Number.isInteger(v) ? String(v) : pyFloat(v);
    if (typeof v === "string") return JSON.stringify(v);
    if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
    return "{" + Object.keys(v).sort(byCodePoint).map(function (k) {
      return JSON.stringify(k) + ":" + canonical(v[k]);
    }).join(",") + "}";
  }

  function plain(v) {
    if (v instanceof Num) return Number(v.lexeme);
    if (Array.isArray(v)) return v.map(plain);
    if (v && typeof v === "object") {
      var o = {};
      Object.keys(v).forEach(function (k) { o[k] = plain(v[k]); });
      return o;
    }
    return v;
  }

  // The event as engine/events.py Event.to_dict(with_hash=False) writes it: the fields it knows, nothing else.
  function hashedForm(raw) {
    var out = Object.create(null);
    out.seq = raw.seq;
    out.kind = typeof raw.kind === "string" ? raw.kind : String(plain(raw.kind));
    out.actor = raw.actor === undefined || raw.actor === null ? "" : (typeof raw.actor === "string" ? raw.actor : String(plain(raw.actor)));
    out.data = raw.data && typeof raw.data === "object" && !Array.isArray(raw.data) ? raw.data : Object.create(null);
    if (typeof raw.at === "string" && raw.at) out.at = raw.at;
    if (Array.isArray(raw.draws) && raw.draws.length) out.draws = raw.draws;
    if (raw.known_round !== undefined && raw.known_round !== null) out.known_round = raw.known_round;
    return out;
  }

  // --- bytes -------------------------------------------------------------------------------------------------------

  var encoder = new TextEncoder();
  function hex(bytes) { return Array.from(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join(""); }
  function unhex(text) {
    if (typeof text !== "string" || text.length % 2 || /[^0-9a-fA-F]/.test(text)) return null;
    var out = new Uint8Array(text.length / 2);
    for (var k = 0; k < out.length; k++) out[k] = parseInt(text.substr(k * 2, 2), 16);
    return out;
  }
  function sha256hex(bytes) { return hex(window.noble.sha256(bytes)); }

  // engine/commit_reveal.py uniform: HMAC-SHA256(key, "label#counter"), 4-byte big-endian words, rejection sampling.
  function uniform(key, label, count, lo, hi) {
    var n = hi - lo + 1;
    if (!(n >= 1 && n <= SPACE) || !(count >= 0 && count <= 10000)) return null;
    var limit = SPACE - (SPACE % n), out = [], counter = 0;
    while (out.length < count && counter < 100000) {
      var d = window.noble.hmac(window.noble.sha256, key, encoder.encode(label + "#" + counter));
      for (var k = 0; k < 32 && out.length < count; k += 4) {
        var x = ((d[k] << 24) >>> 0) + (d[k + 1] << 16) + (d[k + 2] << 8) + d[k + 3];
        if (x < limit) out.push(lo + (x % n));
      }
      counter++;
    }
    return out;
  }

  // engine/dice.py: one lottery number per die when the sides divide 90, else a pair with rejection.
  function lotteryValues(numbers, lo, hi, count) {
    var span = hi - lo + 1;
    if (span < 1 || span > 1000) return null;
    var per = 90 % span === 0 ? 1 : 2, out = [];
    for (var k = 0; k < count; k++) {
      var chunk = numbers.slice(k * per, (k + 1) * per);
      if (chunk.length < per) return null;
      if (per === 1) { out.push(lo + ((chunk[0] - 1) % span)); continue; }
      var v = (chunk[0] - 1) * 90 + (chunk[1] - 1);
      if (v >= 8100 - (8100 % span)) return null;
      out.push(lo + (v % span));
    }
    return out;
  }

  function roundMessage(round) {
    var b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt(round));
    return window.noble.sha256(b);
  }

  function checkBeacon(round, signature) {
    var sig = unhex(signature);
    if (!sig || sig.length !== 48) return "the signature is not 48 bytes of hex";
    try {
      var point = window.noble.bls12_381.G1.hashToCurve(roundMessage(round), { DST: DST });
      if (window.noble.bls12_381.verifyShortSignature(sig, point, QUICKNET.publicKey)) return null;
      return "the signature of round " + round + " does not verify under quicknet's public key";
    } catch (err) {
      return "the signature is not a point of G1 (" + (err && err.message ? err.message.slice(0, 80) : "unreadable") + ")";
    }
  }

  // --- time ----------------------------------------------------------------------------------------------------------

  function zoneOffset(ts, zone) {
    var f = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "2-digit",
      day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
    var p = {};
    f.formatToParts(new Date(ts)).forEach(function (x) { p[x.type] = x.value; });
    return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour % 24, +p.minute, +p.second) - ts;
  }

  // A lottery draw is held at 20:00 in Rome (engine/lotto.py held_at).
  function drawHeldAt(day) {
    var m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day || "");
    if (!m) return null;
    var local = Date.UTC(+m[1], +m[2] - 1, +m[3], 20, 0, 0);
    var ts = local - zoneOffset(local, "Europe/Rome");
    return local - zoneOffset(ts, "Europe/Rome");
  }

  function roundTime(round) { return (QUICKNET.genesis + (round - 1) * QUICKNET.period) * 1000; }
  function iso(ts) { return new Date(ts).toISOString().replace(".000Z", "Z"); }

  // --- the checks ----------------------------------------------------------------------------------------------------

  function Check(id, title) {
    this.id = id; this.title = title; this.state = "pass"; this.count = 0; this.problems = []; this.notes = [];
  }
  Check.prototype.fail = function (where, detail) { this.state = "fail"; this.problems.push({ where: where, detail: detail }); };
  Check.prototype.note = function (text) { this.notes.push(text); };

  function readLog(text) {
    var events = [], problems = [];
    text.split("\n").forEach(function (line, k) {
      if (!line.trim()) return;
      try {
        var raw = parseJSON(line);
        if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new Error("not an object");
        events.push({ raw: raw, line: k + 1, seq: raw.seq instanceof Num ? Number(raw.seq.lexeme) : NaN,
                      ev: plain(raw) });
      } catch (err) {
        problems.push({ where: "line " + (k + 1), detail: "not a JSON event (" + err.message + ")" });
      }
    });
    return { events: events, problems: problems };
  }

  function chainCheck(read, site) {
    var c = new Check("chain", "Hash chain: every event follows from the one before it");
    read.problems.forEach(function (p) { c.fail(p.where, p.detail); });
    var head = GENESIS_HEAD, last = 0;
    read.events.forEach(function (e) {
      var expected = sha256hex(encoder.encode(head + "\n" + canonical(hashedForm(e.raw))));
      var stored = typeof e.ev.hash === "string" ? e.ev.hash : "";
      if (e.seq !== last + 1) c.fail("event #" + e.seq, "out of order: the log was at #" + last);
      if (!stored) c.fail("event #" + e.seq + " (" + e.ev.kind + ")", "has no hash: the log was edited or not written by Legatus");
      else if (stored !== expected) {
        c.fail("event #" + e.seq + " (" + e.ev.kind + ")", "does not match the hash chain: this event (or the one " +
          "before it) was changed or inserted; its content hashes to " + expected.slice(0, 16) + "…, the log says " +
          stored.slice(0, 16) + "…");
      }
      head = stored || expected; last = e.seq; c.count++;
    });
    c.head = last + ":" + head;
    if (site && site.head && (site.last_seq !== last || site.head !== head)) {
      c.fail("head", "the log ends at " + last + ":" + head.slice(0, 16) + "…, but this site published " +
        site.last_seq + ":" + String(site.head).slice(0, 16) + "…: the log was cut or rewritten after it");
    }
    c.summary = c.count + " events, head " + last + ":" + head.slice(0, 16) + "…";
    return c;
  }

  function publicValues(read, checks) {
    var pv = { draws: {}, beacons: {}, cancelled: {}, created: {}, events: {} };
    var beacons = checks.beacons, named = checks.named;
    read.events.forEach(function (e) {
      var ev = e.ev, d = ev.data || {};
      pv.events[e.seq] = ev;
      if (ev.kind === "campaign.created") pv.created = d;
      if (ev.kind === "draw.recorded") {
        var clean = {};
        Object.keys(d.numbers || {}).forEach(function (w) { clean[w] = (d.numbers[w] || []).map(Number); });
        pv.draws[d.date] = clean;
        var source = String(d.source || "");
        var how = [["gm", "typed by a GM"], ["single", "taken from one source"], ["import", "imported, not fetched from two sources"]]
          .filter(function (k) { return source.split(";").some(function (part) { return part.trim().startsWith(k[0]); }); })
          .map(function (k) { return k[1]; });
        if (how.length) named.note("event #" + e.seq + ": the draw of " + d.date + " was " + how.join(" and "));
      }
      if (ev.kind === "draw.cancelled") {
        pv.cancelled[d.date] = true;
        named.note("event #" + e.seq + ": the draw of " + d.date + " was ruled not held (cancelled)" +
          (d.reason ? ": " + d.reason : ""));
      }
      if (ev.kind === "gm.void") named.note("event #" + e.seq + ": the GM voided event #" + d.target + ": " + (d.reason || ""));
      if (ev.kind === "gm.undo") named.note("event #" + e.seq + ": the GM undid a decision" + (d.reason ? ": " + d.reason : ""));
      if (ev.kind === "player.undo") named.note("event #" + e.seq + ": " + ev.actor + " took back their order #" + d.target);
      if (ev.kind === "beacon.recorded") {
        var round = Number(d.round), where = "event #" + e.seq + " (round " + d.round + ")";
        beacons.count++;
        if (!Number.isInteger(round) || round < 1) { beacons.fail(where, "no drand round"); return; }
        var sig = unhex(d.signature);
        var randomness = sig ? sha256hex(sig) : null;
        beacons.pending.push({ where: where, round: round, signature: d.signature });
        if (randomness && d.randomness !== randomness) {
          beacons.fail(where, "the randomness recorded is not SHA-256 of the signature (" + randomness.slice(0, 16) + "…)");
        }
        if (randomness) pv.beacons[round] = randomness;
      }
    });
    var chain = pv.created.drand_chain;
    pv.otherChain = Boolean(pv.created.drand_test_chain) || Boolean(chain && chain.hash !== QUICKNET.hash);
    if (pv.created.drand_test_chain) beacons.fail("event #1", "test chain: not verifiable (the campaign drew from a chain whose key its operator holds)");
    else if (chain && (chain.hash !== QUICKNET.hash || String(chain.public_key).toLowerCase() !== QUICKNET.publicKey ||
      chain.genesis !== QUICKNET.genesis || chain.period !== QUICKNET.period)) {
      beacons.fail("event #1", "the log names the drand chain '" + chain.name + "', not quicknet: its beacons are checked against quicknet's pinned key");
    }
    return pv;
  }

  function mixingRound(label) {
    var k = String(label).lastIndexOf(MIX_TAG);
    if (k < 0) return null;
    var digits = String(label).slice(k + MIX_TAG.length);
    return /^\d+$/.test(digits) ? Number(digits) : null;
  }

  function same(a, b) { return a.length === b.length && a.every(function (x, k) { return x === b[k]; }); }

  function diceCheck(site, pv, perRoll) {
    var c = new Check("dice", "Dice: every value derived again from its public value");
    var rule = Number(pv.created.commit_reveal_rule || 1);
    (site.ledger || []).forEach(function (e) {
      var where = "roll #" + e.id + (e.turn ? ", turn " + e.turn : "") + " (" + (e.purpose || "") + ")";
      if (e.values === null || e.values === undefined) { perRoll(e.id, "pending", "waits for its public value"); return; }
      var got = null, why = "", d = e.derive;
      if (e.source === "drand") {
        var r = pv.beacons[Number(e.key)];
        if (!r) why = "the log records no beacon of round " + e.key;
        else if (!d) why = "no label and range to derive it with: checked by legatus verify";
        else got = uniform(unhex(r), d.label, d.count, d.lo, d.hi);
      } else if (e.source === "commit-reveal") {
        var round = mixingRound(e.key);
        if (rule >= 2 && round !== null && d && pv.beacons[round]) got = uniform(unhex(pv.beacons[round]), d.label, d.count, d.lo, d.hi);
        else if (rule >= 2 && round !== null && d) why = "the log records no beacon of round " + round;
        else why = "drawn from the seed: recomputed by legatus verify once the seed is revealed";
      } else if (e.source === "lottery") {
        var numbers = [];
        (e.slots || []).forEach(function (s) {
          var draw = pv.draws[s[0]];
          var n = draw && draw[s[1]] ? draw[s[1]][Number(s[2]) - 1] : undefined;
          if (n === undefined) why = why || "the log records no number for " + s[0] + " " + s[1] + " #" + s[2];
          numbers.push(n);
        });
        if (!why) got = d ? lotteryValues(numbers, d.lo, d.hi, d.count) : numbers;
        if (!why && got === null) why = "its numbers give no value by the dice rule";
      } else {
        why = "an unknown source '" + e.source + "'";
      }
      if (got === null) {
        if (/^(the log records no|its numbers|an unknown)/.test(why)) { c.fail(where, why); perRoll(e.id, "fail", why); }
        else { c.note(where + ": " + why); perRoll(e.id, "skip", why); }
        return;
      }
      c.count++;
      if (!same(got, e.values.map(Number))) {
        var detail = "the ledger shows " + e.values.join(", ") + ", but its public value gives " + got.join(", ");
        c.fail(where, detail); perRoll(e.id, "fail", detail);
      } else perRoll(e.id, "pass", "derived again: " + got.join(", "));
    });
    c.summary = c.count + (c.count === 1 ? " roll" : " rolls") + " derived again" + (c.notes.length ? ", " + c.notes.length + " left to legatus verify" : "");
    return c;
  }

  function timeCheck(site, pv, perRoll) {
    var c = new Check("time", "Bindings: every roll bound before its draw or round was known");
    var live = pv.created.clock === "live", historical = 0, otherChain = 0;
    (site.ledger || []).forEach(function (e) {
      var where = "roll #" + e.id + (e.turn ? ", turn " + e.turn : "") + " (" + (e.purpose || "") + ")";
      if (e.bound_seq === null || e.bound_seq === undefined) return;
      var ev = pv.events[e.bound_seq];
      if (!ev) { c.fail(where, "the event #" + e.bound_seq + " said to bind it is not in the log"); perRoll(e.id, "fail", "no binding event"); return; }
      var source = e.source, key = e.key;
      if (source === "commit-reveal") {
        var mixed = mixingRound(key);
        if (mixed === null) return;
        source = "drand"; key = mixed;
      }
      var at = Date.parse(ev.at || "");
      var moment, margin, what, offered;
      if (source === "drand" && pv.otherChain) { otherChain++; return; }
      if (source === "drand") {
        moment = roundTime(Number(key)); margin = DRAND_MARGIN_S; what = "drand round " + key;
        offered = (ev.draws || []).indexOf("drand:" + key) >= 0;
        if (!offered) { c.fail(where, "event #" + e.bound_seq + " did not offer " + what + " to bind to"); perRoll(e.id, "fail", "round not offered"); return; }
        if (ev.known_round !== undefined && ev.known_round !== null && Number(ev.known_round) >= Number(key)) {
          c.fail(where, "event #" + e.bound_seq + " was made when round " + ev.known_round + " was already known, not before " + what);
          perRoll(e.id, "fail", "bound after its round"); return;
        }
      } else if (source === "lottery") {
        if (!live) { historical++; return; }
        moment = drawHeldAt(String(key)); margin = LOTTERY_MARGIN_S; what = "the draw of " + key;
      } else return;
      c.count++;
      if (!(at + margin * 1000 <= moment)) {
        var detail = "bound by event #" + e.bound_seq + " at " + (isNaN(at) ? "no time" : iso(at)) + ", not " + margin +
          " s before " + what + " (" + iso(moment) + ")";
        c.fail(where, detail); perRoll(e.id, "fail", detail);
      }
    });
    if (otherChain) {
      c.fail("event #1", otherChain + " drand bindings are on a chain that is not quicknet: their round times " +
        "cannot be checked against quicknet's clock");
    }
    if (historical) c.note(historical + " lottery bindings of a historical campaign: made on draws already held, by design (not bound in advance)");
    c.summary = c.count + (c.count === 1 ? " binding" : " bindings") + " held to their draw or round time";
    return c;
  }

  function finishBeacons(beacons, done, progress) {
    var queue = beacons.pending.slice(), k = 0;
    function next() {
      if (progress && queue.length) progress("Checking the drand beacons in this browser: " + k + " of " + queue.length + "…");
      var stop = Date.now() + 40; // keep the page responsive: a signature costs tens of milliseconds
      while (k < queue.length && Date.now() < stop) {
        var b = queue[k++], problem = checkBeacon(b.round, b.signature);
        if (problem) beacons.fail(b.where, problem);
        else beacons.verified++;
      }
      if (k < queue.length) setTimeout(next, 0);
      else {
        beacons.summary = beacons.count ? beacons.verified + " of " + beacons.count + " beacons verified against " +
          "quicknet's pinned key" : "the campaign recorded no drand beacon";
        done();
      }
    }
    next();
  }

  function legatusVerify(logText, site, done, progress) {
    var read = readLog(logText);
    var chain = chainCheck(read, site);
    var beacons = new Check("beacons", "drand beacons: every signature checked against quicknet's pinned key");
    beacons.pending = []; beacons.verified = 0;
    var named = new Check("named", "Named in the record: typed, single-source and cancelled draws, undos and voids");
    named.state = "info";
    var perRoll = {};
    function mark(id, state, detail) { if (!perRoll[id] || perRoll[id].state !== "fail") perRoll[id] = { state: state, detail: detail }; }
    var pv = publicValues(read, { beacons: beacons, named: named });
    var dice = diceCheck(site, pv, mark);
    var time = timeCheck(site, pv, mark);
    named.summary = named.notes.length ? named.notes.length + " item" + (named.notes.length > 1 ? "s" : "") :
      "no typed, single-source or cancelled draw, no undo, no void";
    var checks = [chain, beacons, dice, time, named];
    finishBeacons(beacons, function () { done({ checks: checks, perRoll: perRoll, events: read.events }); }, progress);
  }

  window.legatusVerify = legatusVerify;
  window.legatusCanonical = function (line) { return canonical(parseJSON(line)); };
  window.legatusDrawHeldAt = function (day) { return iso(drawHeldAt(day)); };
}());
