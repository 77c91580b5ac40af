// arbitru pages: live refresh over SSE, the countdown, spoken announcements, the desk's Enter key, blank taps.
(function () {
  "use strict";
  var body = document.body;
  var url = body.getAttribute("data-events");
  // the phone's slip form sends the move its page shows (the live part's data-move): a slip pressed before the
  // next rack reached the page is refused, not stored as the next move's
  function followShownMove() {
    var shown = document.querySelector("#live [data-move]");
    document.querySelectorAll("input[data-shown-move]").forEach(function (field) {
      if (shown) field.value = shown.getAttribute("data-move");
    });
    document.querySelectorAll("input[data-shown-rack]").forEach(function (field) {
      if (shown) field.value = shown.getAttribute("data-rack");
    });
  }
  if (url && window.EventSource) {
    var source = new EventSource(url), lost = false, opened = false, missed = false;
    source.addEventListener("changed", function () { htmx.trigger(body, "gamechanged"); });
    // the phone's live part pushed on the stream itself: swapped as its refetch would be (hx-select kept)
    source.addEventListener("live", function (e) {
      document.querySelectorAll("[data-pushed]").forEach(function (el) {
        htmx.swap(el, e.data, { swapStyle: "innerHTML", swapDelay: 0, settleDelay: 0 },
                  { select: el.getAttribute("hx-select") || undefined });
      });
      followShownMove();
    });
    body.addEventListener("htmx:afterSettle", followShownMove);
    // a dropped connection: the browser reconnects by itself with the last event's id, and the server tells
    // what it missed; a stream that never opened has no id, and a refetch the network cut was told already
    // (its id is the last), so then the page fetches the state itself
    body.addEventListener("htmx:sendError", function () { missed = true; });
    source.addEventListener("error", function () { lost = true; body.classList.add("offline"); });
    source.addEventListener("open", function () {
      body.classList.remove("offline");
      if (lost && (!opened || missed)) htmx.trigger(body, "gamechanged");
      lost = false; opened = true; missed = false;
    });
  }
  var spoken = {};
  function say(text) {
    if (body.getAttribute("data-speak") !== "1" || !window.speechSynthesis || spoken[text]) return;
    spoken[text] = true;
    var u = new SpeechSynthesisUtterance(text);
    u.lang = body.getAttribute("data-lang") || "en";
    window.speechSynthesis.speak(u);
  }
  function fmt(s) {
    s = Math.max(0, Math.ceil(s));
    var m = Math.floor(s / 60), r = s % 60;
    return m + ":" + (r < 10 ? "0" : "") + r;
  }
  function startClocks(root) {
    root.querySelectorAll(".clock[data-state]").forEach(function (el) {
      var state = el.getAttribute("data-state");
      var seconds = parseFloat(el.getAttribute("data-seconds"));
      var left = parseFloat(el.getAttribute("data-remaining"));
      var cues = JSON.parse(el.getAttribute("data-cues") || "[]");
      var shown = el.querySelector(".time"), note = el.querySelector(".cue");
      var t0 = performance.now() / 1000;
      var key = el.getAttribute("data-move") + ":";
      function tick() {
        if (!el.isConnected) return;
        var now = state === "running" ? left - (performance.now() / 1000 - t0) : left;
        shown.textContent = fmt(now);
        el.classList.toggle("over", now <= 0 && state !== "idle");
        var elapsed = seconds - now, last = null;
        if (state !== "idle") cues.forEach(function (c) { if (c.at <= elapsed + 0.05) last = c; });
        if (note) note.textContent = last ? last.text : "";
        if (last && state === "running" && elapsed - last.at < 2) say(last.text);
        if (state === "running" && now > 0) setTimeout(tick, 200);
        else if (state === "running") { shown.textContent = fmt(0); }
      }
      tick();
    });
  }
  function typedFields(form) {
    // the fields typed for each slip (the desk's move, kept from slip to slip, apart)
    return Array.prototype.slice.call(form.querySelectorAll("input[type=text]:not([data-kept]),input[type=number]"));
  }
  function slipForms(root) {
    // the desk's and the phone's slip: Enter on an empty form does nothing; a word all in lower case (a phone's
    // keyboard starts so) asks "all blanks?" once, beside the field, answered with one key: Enter stores it as it
    // is, Escape goes back to the word to type it again; no other key is taken while it asks, so nothing typed
    // for the next slip lands in this one (a tap on the phone's button answers yes too)
    root.querySelectorAll("form.desk, form.phoneslip").forEach(function (form) {
      var asking = false, note = form.querySelector("[data-asked]"), word = form.querySelector("input[data-ask-blanks]");
      function stopAsking() { asking = false; form.removeAttribute("data-asking"); if (note) note.hidden = true; }
      form.addEventListener("submit", function (e) {
        if (typedFields(form).every(function (i) { return !i.value.trim(); })) { e.preventDefault(); return; }
        if (!word || !note) return;
        var v = word.value.trim();
        if (v && v === v.toLowerCase() && v !== v.toUpperCase() && form.getAttribute("data-asked-for") !== v) {
          e.preventDefault();
          form.setAttribute("data-asked-for", v);
          note.textContent = word.getAttribute("data-ask-blanks");
          note.hidden = false;
          asking = true;
          form.setAttribute("data-asking", "1");
        }
      });
      document.addEventListener("keydown", function (e) {
        if (!asking || !form.classList.contains("desk")) return;
        e.preventDefault();
        e.stopPropagation();
        if (e.key === "Enter") { stopAsking(); form.requestSubmit ? form.requestSubmit() : form.submit(); }
        else if (e.key === "Escape") { stopAsking(); form.removeAttribute("data-asked-for"); word.focus(); word.select(); }
      }, true);
      if (word) word.addEventListener("input", stopAsking);
    });
    // the phone: Enter in the position (or score) field goes to the next field instead of sending the slip
    root.querySelectorAll("input[data-next]").forEach(function (input) {
      input.addEventListener("keydown", function (e) {
        if (e.key !== "Enter") return;
        e.preventDefault();
        var fields = typedFields(input.form), i = fields.indexOf(input);
        if (i >= 0 && i < fields.length - 1) fields[i + 1].focus();
      });
    });
  }
  function gridFilter() {
    // the console of 100 players: the rows of one player or table; the server finds by the same rule in a game
    // of more players than its grid draws (views.found: keep the two alike)
    var box = document.querySelector("input[data-filter]");
    if (!box) return;
    function apply() {
      // a number whole ("7", "table 7"), a name from the start of one of its words ("ana", "table 7 ana" no)
      var q = box.value.trim().toLowerCase().split(/\s+/).join(" ");
      var needle = " " + q + (/\d$/.test(q) ? " " : "");
      document.querySelectorAll("#" + box.getAttribute("data-filter") + " tr[data-find]").forEach(function (tr) {
        var hay = " " + tr.getAttribute("data-find").toLowerCase().split(/\s+/).join(" ") + " ";
        tr.hidden = !!q && hay.indexOf(needle) < 0;
      });
    }
    box.addEventListener("input", apply);
    document.addEventListener("htmx:afterSwap", apply);
    apply();  // a console opened with a find (?find=) shows what it finds
    // every form of the console sends the find box's text along (as "find"): the console it comes back to, the
    // action refused or done, finds the same players (a confirmation page sends it on with the form); the game's
    // forms are those under its address (/games/ID/, its stream's), wherever the page was drawn (a refused form's
    // console is drawn at the form's own address)
    var game = (url || "").replace(/events$/, "");
    document.addEventListener("submit", function (e) {
      var form = e.target;
      if (!game || !(form instanceof HTMLFormElement)) return;
      if ((form.getAttribute("method") || "").toLowerCase() !== "post") return;
      if ((form.getAttribute("action") || "").indexOf(game) !== 0) return;
      var kept = form.querySelector("input[type=hidden][name=find]");
      if (!kept) {
        kept = document.createElement("input");
        kept.type = "hidden";
        kept.name = "find";
        form.appendChild(kept);
      }
      kept.value = box.value;
    }, true);
  }
  function deskForm(root) {
    root.querySelectorAll("form.desk").forEach(function (form) {
      var inputs = typedFields(form);
      form.querySelectorAll("input[data-kept]").forEach(function (kept) {
        kept.addEventListener("keydown", function (e) {
          if (e.key === "Enter") { e.preventDefault(); if (inputs.length) inputs[0].focus(); }
        });
      });
      inputs.forEach(function (input, i) {
        input.addEventListener("keydown", function (e) {
          if (e.key !== "Enter") return;
          if (i < inputs.length - 1) { e.preventDefault(); inputs[i + 1].focus(); }
        });
      });
    });
  }
  function blankTaps(root) {
    root.querySelectorAll("input[data-blanks]").forEach(function (input) {
      var box = document.getElementById(input.getAttribute("data-blanks"));
      if (!box) return;
      function draw() {
        box.textContent = "";
        Array.prototype.forEach.call(input.value, function (ch, i) {
          var b = document.createElement("button");
          b.type = "button";
          b.className = "tap" + (ch !== ch.toUpperCase() ? " blank" : "");
          b.textContent = ch.toUpperCase();
          b.title = input.getAttribute("data-tap-title") || "";  // said in the page's language
          b.addEventListener("click", function () {
            var c = input.value[i];
            var flipped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
            input.value = input.value.slice(0, i) + flipped + input.value.slice(i + 1);
            draw();
          });
          box.appendChild(b);
        });
      }
      input.addEventListener("input", draw);
      draw();
    });
  }
  function sayShown(root) {
    // anticipation's projected grid: the group just read out, spelled by Annex 2 (spoken once)
    root.querySelectorAll("[data-say]").forEach(function (el) { say(el.getAttribute("data-say")); });
  }
  function fieldHandlers(root) {
    // no inline handlers (the Content-Security-Policy forbids them): a turn field selected on focus, a language
    // choice sent as soon as it changes
    root.querySelectorAll("input[data-select]").forEach(function (input) {
      input.addEventListener("focus", function () { input.select(); });
    });
    root.querySelectorAll("select[data-submit]").forEach(function (select) {
      select.addEventListener("change", function () { select.form.submit(); });
    });
  }
  function anticipationPhone() {
    // the groups and the corrected board go below the slip form: moved there once, then refreshed live
    var target = document.getElementById("livegrid");
    if (!target) return;
    var bottom = document.querySelector("#live #bottom");
    if (bottom) target.appendChild(bottom);
    // a new turn's lot (or the results) arrives live: the slip form is for one turn, so the page is loaded again
    document.addEventListener("htmx:afterSwap", function () {
      var live = document.querySelector("#live [data-turn]"), form = document.querySelector("form.antslip input[name=turn]");
      if (live && live.getAttribute("data-turn") !== (form ? form.value : "0") + ":" + live.getAttribute("data-stage")) location.reload();
    });
  }
  function init(root) { startClocks(root); deskForm(root); blankTaps(root); sayShown(root); fieldHandlers(root); }
  document.addEventListener("DOMContentLoaded", function () {
    init(document); slipForms(document); gridFilter(); anticipationPhone();
    // back from a stored slip: the cursor on the player field, ready for the next slip
    // (the browser blocks autofocus on a page with a fragment, and scrolls to it after this)
    var first = document.getElementById("desk-player");
    if (first && location.hash === "#desk") {
      window.addEventListener("load", function () { setTimeout(function () { first.focus(); }, 0); });
    }
  });
  document.addEventListener("htmx:afterSwap", function (e) { init(e.target); });
})();
