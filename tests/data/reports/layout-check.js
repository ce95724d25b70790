/*
 * layout-check.js - added by the report tests to a copy of a page (the
 * pages themselves carry no script): measures in the browser what a reader
 * would see, and writes it into the page as one JSON line for --dump-dom.
 * With '#print' it measures the printed layout instead. Checked: no
 * horizontal overflow at the window's width; every chart has axis ticks
 * and a legend; no legend entry, value label or axis label overlaps
 * another; legends stay inside their chart.
 */
(function () {
	/*
	 * '#print': lay the page out as printed, the print rules applied as
	 * screen rules, in a window as wide as the A4 page inside its margins
	 * (the caller's --window-size).
	 */
	var css = '';
	if (location.hash === '#print') {
		Array.prototype.forEach.call(document.styleSheets, function (sh) {
			Array.prototype.forEach.call(sh.cssRules, function (r) {
				if (r.media && r.media.mediaText.indexOf('print') >= 0)
					Array.prototype.forEach.call(r.cssRules,
						function (x) { css += x.cssText; });
			});
		});
		var st = document.createElement('style');
		st.textContent = css;
		document.head.appendChild(st);
	}
	var out = {
		width: window.innerWidth,
		printRules: css.length,
		overflow: document.documentElement.scrollWidth - window.innerWidth,
		charts: 0,
		noTicks: [],
		noLegend: [],
		overlaps: []
	};
	function box(e) { return e.getBoundingClientRect(); }
	function hit(a, b) {
		return a.left < b.right - 0.5 && b.left < a.right - 0.5 &&
			a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
	}
	function all(svg, sel) {
		return Array.prototype.slice.call(svg.querySelectorAll(sel));
	}
	all(document, 'svg.chart').forEach(function (svg, n) {
		var id = svg.id || svg.getAttribute('aria-label') || String(n);
		var texts = all(svg, '.lg, .lbl, .val, .tick, .unit');
		var sb = box(svg);
		out.charts++;
		if (all(svg, '.tick').length < 2)
			out.noTicks.push(id);
		if (!all(svg, '.lg').length)
			out.noLegend.push(id);
		texts.forEach(function (a, i) {
			texts.slice(i + 1).forEach(function (b) {
				if (hit(box(a), box(b)))
					out.overlaps.push(id + ': "' + a.textContent +
						'" / "' + b.textContent + '"');
			});
		});
		all(svg, '.lg').forEach(function (l) {
			var a = box(l);
			if (a.right > sb.right + 1 || a.bottom > sb.bottom + 1)
				out.overlaps.push(id + ': legend outside: ' +
					l.textContent);
		});
	});
	/* the first screen (issue 53): where the answer and the penalty
	 * chart end, the findings shown unfolded, the charts without a
	 * text alternative */
	function bottom(sel) {
		var e = document.querySelector(sel);
		return e ? box(e).bottom + window.scrollY : null;
	}
	out.answerBottom = bottom('ul.answer');
	out.penaltyBottom = bottom('svg#penalty');
	out.findingsShown = all(document, 'ul.findings > li').length;
	out.findingsFolded = all(document, 'details.more li').length;
	out.noAlt = [];
	all(document, 'svg.chart').forEach(function (svg, n) {
		var alt = svg.getAttribute('aria-label');
		if (!alt || !alt.trim())
			out.noAlt.push(svg.id || String(n));
	});
	/* what sticks out, outermost first, to say where to look */
	out.wide = [];
	all(document, 'body *').forEach(function (e) {
		if (out.wide.length < 3 && box(e).right > window.innerWidth + 0.5)
			out.wide.push(e.tagName.toLowerCase() +
				(e.className && e.className.baseVal === undefined &&
				 e.className ? '.' + e.className : '') + ': ' +
				e.textContent.slice(0, 40));
	});
	var pre = document.createElement('pre');
	pre.textContent = 'PB' + 'CHECK ' + JSON.stringify(out) + ' PB' + 'END';
	document.body.appendChild(pre);
})();
