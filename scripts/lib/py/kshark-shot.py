# SPDX-License-Identifier: GPL-2.0
# The Python half of scripts/host/kshark-shot (its arguments: see the call there).
import json, os, sys
out, trace, plugin, w, h, t0, t1, tasks = sys.argv[1:]
w, h, t0, t1 = int(w), int(h), int(t0), int(t1)
stream = {
    "type": "kshark.config.stream", "stream id": 0,
    "data": {"type": "kshark.config.data", "file": trace,
             "name": "top buffer", "time": int(os.stat(trace).st_mtime)},
    "filters": {"type": "kshark.config.filter", "filter mask": 7},
    "plugins": {"type": "kshark.config.plugins", "registered": []},
    "CPUPlots": [0],
    "TaskPlots": [int(p) for p in tasks.split(",") if p],
}
s = {
    "type": "kshark.config.session",
    "MainWindow": [w, h],
    "Splitter": [h // 2, h // 2],
    "data streams": [stream],
    "ComboPlots": [],
    "Markers": {"type": "kshark.config.markers", "markA": {"isSet": False},
                "markB": {"isSet": False}, "Active": "A"},
    "ViewTop": 0,
    "ColorScheme": 0.75,
}
if t1 > t0:
    s["Model"] = {"type": "kshark.config.model", "range": [t0, t1],
                  "bins": w - 120}
if plugin != "none":
    name = "entrytrace"
    stream["plugins"]["registered"].append([name, True])
    s["User Plugins"] = {"type": "kshark.config.plugins", "obj. files": [
        {"type": "kshark.config.library", "file": plugin, "name": name,
         "time": int(os.stat(plugin).st_mtime)}]}
json.dump(s, open(out, "w"), indent=1)
