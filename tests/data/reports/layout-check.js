/*
 * layout-check.js - added by the report tests to a copy of a page (the
 * pages themselves carry no script): measures in the browser what a reader
 * would see, and writes it into the page as one JSON line for --dump-dom.
 * Checked: no horizontal overflow at the window's width; every chart has
 * axis ticks and a legend; no legend entry, value label or axis label
 * overlaps another; legends stay inside their chart.
 */
(function () {
	var out = {
		width: window.innerWidth,
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
	var pre = document.createElement('pre');
	pre.textContent = 'PB' + 'CHECK ' + JSON.stringify(out) + ' PB' + 'END';
	document.body.appendChild(pre);
})();
