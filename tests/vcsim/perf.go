// perf.go - QueryPerf as a real vCenter or ESXi answers it for real-time
// statistics, which the packaged simulator does not: its samples are
// stamped back from the query's end rather than on the server's 20 s
// marks, every sample up to "now" is there at once, maxSample unset
// gives none, and format "csv" is ignored.
//
// Here (vSphere Monitoring and Performance, "Real-time statistics";
// govmomi's performance package, `govc metric.sample`; the vim25
// reference for PerfQuerySpec):
//   - samples are 20 s intervals ending on the server clock's 20 s
//     marks, each stamped with its end, kept one hour;
//   - a sample appears perfLag after its interval ends (20-30 s on real
//     servers), so a query right after a pass misses its last samples;
//   - startTime is exclusive, endTime inclusive;
//   - a per-device counter is asked by instance: a VM's virtual disks
//     are "scsiB:U" of the disks it has, a host's disk.* counters the
//     canonical names of its LUNs, its datastore.* counters the
//     datastores' uuids, "" the aggregate; an instance or a
//     counter the entity does not have gives no series;
//   - format "csv" answers PerfEntityMetricCSV (sampleInfoCSV
//     "20,<time>,..." and each series' values as one string); no
//     samples in the window, no returnval;
//   - QueryPerfProviderSummary says the real-time refreshRate (20) of a
//     VM or host, as the packaged simulator does, or -perf-interval's.
//
// The values are the packaged simulator's own recorded ESXi samples
// where it has them for the counter, else a steady figure of the
// counter's unit: what the fixture vouches for is the shape, the clock
// and the lag, not a device's behaviour.
package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/simulator/esx"
	"github.com/vmware/govmomi/simulator/vpx"
	"github.com/vmware/govmomi/vim25/types"
)

const perfKeep = time.Hour

// The real-time interval and lag, 20 s and 25 s as real servers have
// them; -perf-interval and -perf-lag give a test a faster clock (the
// server says its interval in QueryPerfProviderSummary's refreshRate, and
// a client that reads it sees the same shape in a tenth of the time).
var (
	perfInterval int64 = 20
	perfLag            = 25 * time.Second
)

var (
	qpEntityRe = regexp.MustCompile(`<entity type="(\w+)">([^<]+)</entity>`)
	qpStartRe  = regexp.MustCompile(`<startTime>([^<]+)</startTime>`)
	qpEndRe    = regexp.MustCompile(`<endTime>([^<]+)</endTime>`)
	qpMetricRe = regexp.MustCompile(`(?s)<metricId>\s*<counterId>(\d+)</counterId>\s*(?:<instance>([^<]*)</instance>|<instance/>|<instance></instance>)?\s*</metricId>`)
	qpFormatRe = regexp.MustCompile(`<format>(\w+)</format>`)
	qpSpecRe   = regexp.MustCompile(`(?s)<querySpec>.*?</querySpec>`)
)

// perfNames: the server's own counter keys (vCenter's and ESXi's differ)
// by group.name.rollup.
func perfNames() map[int32]string {
	table := vpx.PerfCounter
	if esxMode {
		table = esx.PerfCounter
	}
	names := make(map[int32]string, len(table))
	for _, c := range table {
		names[c.Key] = c.GroupInfo.GetElementDescription().Key + "." +
			c.NameInfo.GetElementDescription().Key + "." + string(c.RollupType)
	}
	return names
}

// perfValue is a counter's sample at t: the recorded data where there is
// some, else a steady figure of its unit.
func perfValue(kind string, id int32, name string, t time.Time) int64 {
	data := vpx.MetricData[kind]
	if esxMode {
		data = esx.MetricData[kind]
	}
	if p := data[id]; len(p) > 0 {
		return p[(t.Unix()/perfInterval)%int64(len(p))]
	}
	switch name {
	case "virtualDisk.numberWriteAveraged.average": // writes/s
		return 180
	case "virtualDisk.write.average": // KB/s
		return 180 * 1024
	case "virtualDisk.totalWriteLatency.average", "disk.totalWriteLatency.average",
		"disk.deviceWriteLatency.average", "datastore.totalWriteLatency.average": // ms
		return 4
	case "datastore.numberWriteAveraged.average":
		return 180
	case "cpu.used.summation": // ms in the interval
		return 900
	}
	return 0
}

// perfHas: whether the entity keeps the counter for that instance.
func perfHas(kind, ref, instance, name string) bool {
	for _, i := range perfInstances(kind, ref, strings.SplitN(name, ".", 2)[0]) {
		if i == instance {
			return true
		}
	}
	return false
}

func queryPerf(req []byte) string {
	var out strings.Builder
	now := time.Now().UTC()
	names := perfNames()
	out.WriteString(`<QueryPerfResponse xmlns="urn:vim25">`)
	for _, spec := range qpSpecRe.FindAll(req, -1) {
		e := qpEntityRe.FindSubmatch(spec)
		if e == nil {
			continue
		}
		kind, ref := string(e[1]), string(e[2])
		start := now.Add(-perfKeep)
		end := now
		if m := qpStartRe.FindSubmatch(spec); m != nil {
			if t, err := time.Parse(time.RFC3339, string(m[1])); err == nil && t.After(start) {
				start = t
			}
		}
		if m := qpEndRe.FindSubmatch(spec); m != nil {
			if t, err := time.Parse(time.RFC3339, string(m[1])); err == nil && t.Before(end) {
				end = t
			}
		}
		// what has appeared: intervals ending perfLag ago or earlier
		if newest := now.Add(-perfLag); end.After(newest) {
			end = newest
		}
		var stamps []time.Time
		first := start.Unix()/perfInterval*perfInterval + perfInterval
		for t := first; t <= end.Unix(); t += perfInterval {
			stamps = append(stamps, time.Unix(t, 0).UTC())
		}
		csv := true
		if m := qpFormatRe.FindSubmatch(spec); m != nil && string(m[1]) != "csv" {
			csv = false
		}
		if len(stamps) == 0 || !csv {
			// normal format is not what provbench asks for; a
			// window with nothing in it has no returnval
			continue
		}
		var info []string
		for _, t := range stamps {
			info = append(info, strconv.FormatInt(perfInterval, 10), t.Format(time.RFC3339))
		}
		fmt.Fprintf(&out, `<returnval xsi:type="PerfEntityMetricCSV"><entity type="%s">%s</entity>`+
			`<sampleInfoCSV>%s</sampleInfoCSV>`, kind, ref, strings.Join(info, ","))
		for _, m := range qpMetricRe.FindAllSubmatch(spec, -1) {
			id64, _ := strconv.ParseInt(string(m[1]), 10, 32)
			id, inst := int32(id64), string(m[2])
			name, known := names[id]
			if !known || !perfHas(kind, ref, inst, name) {
				continue
			}
			var vals []string
			for _, t := range stamps {
				vals = append(vals, strconv.FormatInt(perfValue(kind, id, name, t), 10))
			}
			fmt.Fprintf(&out, `<value xsi:type="PerfMetricSeriesCSV"><id><counterId>%d</counterId>`+
				`<instance>%s</instance></id><value>%s</value></value>`, id, inst, strings.Join(vals, ","))
		}
		out.WriteString(`</returnval>`)
	}
	out.WriteString(`</QueryPerfResponse>`)
	return soapReply(out.String())
}

// perfInstances: the instances an entity offers a counter group in.
func perfInstances(kind, ref, group string) []string {
	var out []string
	switch {
	case kind == "VirtualMachine" && group == "virtualDisk":
		vm, ok := simulator.Map.Get(types.ManagedObjectReference{Type: kind, Value: ref}).(*benchVM)
		if !ok {
			return nil
		}
		ctl := map[int32]int32{}
		for _, d := range vm.Config.Hardware.Device {
			if c, ok := d.(types.BaseVirtualSCSIController); ok {
				cc := c.GetVirtualSCSIController()
				ctl[cc.Key] = cc.BusNumber
			}
		}
		for _, d := range vm.Config.Hardware.Device {
			if disk, ok := d.(*types.VirtualDisk); ok && disk.UnitNumber != nil {
				if bus, ok := ctl[disk.ControllerKey]; ok {
					out = append(out, fmt.Sprintf("scsi%d:%d", bus, *disk.UnitNumber))
				}
			}
		}
	case kind == "HostSystem" && group == "disk":
		out = append(out, "")
		for _, l := range esx.HostConfigInfo.StorageDevice.ScsiLun {
			if l.GetScsiLun().LunType == "disk" {
				out = append(out, l.GetScsiLun().CanonicalName)
			}
		}
	case kind == "HostSystem" && group == "datastore":
		out = append(out, "")
		for _, obj := range simulator.Map.All("Datastore") {
			if v, ok := obj.(*simulator.Datastore).Info.(*types.VmfsDatastoreInfo); ok && v.Vmfs != nil {
				out = append(out, v.Vmfs.Uuid)
			}
		}
	case group == "cpu":
		out = append(out, "")
	}
	return out
}

// queryAvailable answers QueryAvailablePerfMetric at the real-time
// interval: each counter this fixture samples, once per instance the
// entity has (a real server lists many more groups: mem, net, ...).
func queryAvailable(req []byte) string {
	var out strings.Builder
	out.WriteString(`<QueryAvailablePerfMetricResponse xmlns="urn:vim25">`)
	if e := qpEntityRe.FindSubmatch(req); e != nil {
		kind, ref := string(e[1]), string(e[2])
		for id, name := range perfNames() {
			group := strings.SplitN(name, ".", 2)[0]
			if !strings.HasSuffix(name, ".average") && !strings.HasSuffix(name, ".summation") {
				continue
			}
			for _, inst := range perfInstances(kind, ref, group) {
				fmt.Fprintf(&out, `<returnval><counterId>%d</counterId><instance>%s</instance></returnval>`, id, inst)
			}
		}
	}
	out.WriteString(`</QueryAvailablePerfMetricResponse>`)
	return soapReply(out.String())
}

// queryProvider answers QueryPerfProviderSummary for a VM or a host:
// real-time statistics at perfInterval (the packaged simulator's answer,
// with -perf-interval's rate).
func queryProvider(req []byte) string {
	var out strings.Builder
	e := qpEntityRe.FindSubmatch(req)
	fmt.Fprintf(&out, `<QueryPerfProviderSummaryResponse xmlns="urn:vim25"><returnval>`+
		`<entity type="%s">%s</entity><currentSupported>true</currentSupported>`+
		`<summarySupported>true</summarySupported><refreshRate>%d</refreshRate>`+
		`</returnval></QueryPerfProviderSummaryResponse>`, e[1], e[2], perfInterval)
	return soapReply(out.String())
}

// perfHandler answers QueryPerf, QueryAvailablePerfMetric and a VM's or
// host's QueryPerfProviderSummary; everything else goes on.
func perfHandler(inner http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			inner.ServeHTTP(w, r)
			return
		}
		req, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(req))
		switch {
		case bytes.Contains(req, []byte("<QueryPerf>")) ||
			bytes.Contains(req, []byte("<QueryPerf xmlns")):
			w.Header().Set("Content-Type", "text/xml; charset=utf-8")
			io.WriteString(w, queryPerf(req))
		case bytes.Contains(req, []byte("<QueryPerfProviderSummary")) &&
			qpEntityRe.Match(req) &&
			(bytes.Contains(req, []byte(`type="VirtualMachine"`)) ||
				bytes.Contains(req, []byte(`type="HostSystem"`))):
			w.Header().Set("Content-Type", "text/xml; charset=utf-8")
			io.WriteString(w, queryProvider(req))
		case bytes.Contains(req, []byte("<QueryAvailablePerfMetric")):
			w.Header().Set("Content-Type", "text/xml; charset=utf-8")
			io.WriteString(w, queryAvailable(req))
		default:
			inner.ServeHTTP(w, r)
		}
	})
}
