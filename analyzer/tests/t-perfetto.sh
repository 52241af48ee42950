# SPDX-License-Identifier: GPL-2.0
# export --format=proto: Perfetto's protobuf TrackEvent format, decoded back
# by Google's protobuf (python3-protobuf, protoc) from a subset of Perfetto's
# own .proto definitions (analyzer/tests/perfetto-subset.proto, Perfetto's
# field numbers), and compared with the JSON export of the same traces.
. "$(dirname "$0")/lib.sh"

# Debian's python3 is the one python3-protobuf installs into
py=/usr/bin/python3
command -v protoc >/dev/null && "$py" -c 'import google.protobuf' 2>/dev/null ||
	{ _fail "protoc / python3-protobuf missing: run scripts/setup --tests"; exit 0; }
cp "$TOP/analyzer/tests/perfetto-subset.proto" .

mv perfetto-subset.proto perfetto_subset.proto	# a Python module name
check "protoc compiles the subset of Perfetto's protos" protoc --python_out=. perfetto_subset.proto
cat > decode.py <<'PY'
# decode.py TRACE.pb EXPORT.json: what the protobuf holds, against the JSON
import collections, json, sys
import perfetto_subset_pb2 as pb
t = pb.Trace()
t.ParseFromString(open(sys.argv[1], 'rb').read())
names, cats, anns = {}, {}, {}
threads, procs = {}, {}
stacks = collections.defaultdict(list)
slices, instants = collections.Counter(), collections.Counter()
bad = seq_bad = 0
first_ts = None
for i, p in enumerate(t.packet):
    if p.trusted_packet_sequence_id != 1:
        seq_bad += 1
    if i == 0 and p.sequence_flags != 1:
        seq_bad += 1
    for e in p.interned_data.event_names: names[e.iid] = e.name
    for e in p.interned_data.event_categories: cats[e.iid] = e.name
    for e in p.interned_data.debug_annotation_names: anns[e.iid] = e.name
    if p.HasField('track_descriptor'):
        d = p.track_descriptor
        if d.HasField('thread'): threads[d.uuid] = (d.thread.pid, d.thread.tid, d.thread.thread_name)
        if d.HasField('process'): procs[d.uuid] = d.process.pid
        continue
    if not p.HasField('track_event'):
        continue
    e = p.track_event
    st = stacks[e.track_uuid]
    if e.type == pb.TrackEvent.TYPE_SLICE_BEGIN:
        cat = cats[e.category_iids[0]]; name = names[e.name_iid]
        if st and p.timestamp < st[-1][0]: bad += 1
        st.append((p.timestamp, cat, name))
        slices[(cat, name)] += 1
        if cat == 'syscall' and first_ts is None:
            first_ts = (p.timestamp, name, {anns[a.name_iid]: a.int_value for a in e.debug_annotations if a.HasField('int_value')})
    elif e.type == pb.TrackEvent.TYPE_SLICE_END:
        if not st or p.timestamp < st[-1][0]: bad += 1
        else: st.pop()
    elif e.type == pb.TrackEvent.TYPE_INSTANT:
        instants[(cats[e.category_iids[0]], names[e.name_iid])] += 1
bad += sum(len(s) for s in stacks.values())
j = json.load(open(sys.argv[2]))['traceEvents']
jsl = collections.Counter((e['cat'], e['name']) for e in j if e['ph'] == 'X')
jin = collections.Counter((e['cat'], e['name']) for e in j if e['ph'] == 'i')
jth = {(e['pid'], e['tid']) for e in j if e['ph'] == 'M' and e['name'] == 'thread_name'}
jfirst = [e for e in j if e.get('cat') == 'syscall'][0]
print('packets', len(t.packet))
print('nesting_errors', bad, 'sequence_errors', seq_bad)
print('slices_equal', slices == jsl, sum(slices.values()))
print('instants_equal', instants == jin, sum(instants.values()))
print('threads_equal', {(p, t_) for p, t_, _ in threads.values()} == jth, len(threads))
print('first_syscall', first_ts[1] == jfirst['name'], first_ts[0] == round(jfirst['ts'] * 1000),
      first_ts[2].get('nr') == jfirst['args']['nr'], first_ts[2].get('ret') == jfirst['args']['ret'])
PY
for f in "$DATA"/host-kill-getppid.dat "$DATA"/host-lost.dat "$DATA"/host-edges.dat "$DATA"/x86_64-6.12-stage.dat; do
	n=$(basename "$f" .dat)
	"$ET" export --format proto -o "$n.pb" "$f" 2> "$n.err"
	"$ET" export -o "$n.json" "$f" 2>/dev/null
	"$py" decode.py "$n.pb" "$n.json" > "$n.dec" 2>&1 || { _fail "$n: decoding failed: $(tail -3 "$n.dec")"; continue; }
	expect_eq "$n: protobuf decodes; BEGIN/END nest on every track, one packet sequence" \
		"$(sed -n 's/^nesting_errors \([0-9]*\) sequence_errors \([0-9]*\)/\1 \2/p' "$n.dec")" "0 0"
	expect_eq "$n: the same slices per category and name as the JSON ($(awk '$1 == "slices_equal" { print $3 }' "$n.dec"))" \
		"$(awk '$1 == "slices_equal" { print $2 }' "$n.dec")" True
	expect_eq "$n: the same instants (signal deliveries, lost events, markers)" \
		"$(awk '$1 == "instants_equal" { print $2 }' "$n.dec")" True
	expect_eq "$n: a thread track per task, pid and tid as the JSON's" \
		"$(awk '$1 == "threads_equal" { print $2 }' "$n.dec")" True
	expect_eq "$n: first syscall: name, timestamp (ns), nr and ret as the JSON's" \
		"$(awk '$1 == "first_syscall" { print $2, $3, $4, $5 }' "$n.dec")" "True True True True"
	check "$n: smaller than the JSON ($(stat -c %s "$n.pb") against $(stat -c %s "$n.json") bytes)" \
		test "$(stat -c %s "$n.pb")" -lt "$(stat -c %s "$n.json")"
done
check "export says what it wrote" grep -q 'Perfetto protobuf: [0-9]* packets, [0-9]* bytes' host-lost.err
