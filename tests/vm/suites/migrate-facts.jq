# A cgx-migrate/1 JSON report flattened for bash: one `F['KEY']='VALUE'` line
# per field, to `source` into an associative array. Under TCG each jq run
# costs about a second, so the VM suites read a report once with this.
#
# Keys, words separated by one space (H a hierarchy's name, P a path, FILE a
# v1 file, PID a process):
#   schema version host kernel sources hierarchies in_use divergent_hierarchies
#   pids divergent layout leaves nr_settings markdown_rows v2_values
#   H controllers|named|mountpoint|nr_groups|nr_tasks|unknown_files|groups
#   H P v2_path|fold|shape_divergent|nr_tasks|tasks|settings
#   H P FILE value|default|mapping|fate|v2_file|v2_value|note
#   divergent P present_in|absent_from
#   PID comm|exe|script|program|cmdline|tuple|multi_hierarchy|fold|v2_leaf
#   layout P hierarchies|approximate_for|shape_divergent|leaf|nr_tasks|fold
#   verdict FIELD
# v2_values holds a "V2PATH<TAB>V2FILE<TAB>VALUE" line per line of each
# converted value, markdown_rows the settings table's row of each setting.
# Lists are joined by spaces (sorted where the key says pids or tasks),
# objects as "key:value" words, null as "null".

def text:
  if type == "array" then map(tostring) | join(" ")
  elif type == "object" then to_entries | map("\(.key):\(.value)") | join(" ")
  else tostring end;
def fact($key; $value): "F[\($key | @sh)]=\($value | text | @sh)";
def nodes: .v2_layout | .. | objects | select(has("children"));
def code($v): if $v == null then "-" else "`\($v)`" end;

fact("schema"; .schema), fact("version"; .version), fact("host"; .host),
fact("kernel"; .kernel),
fact("sources"; [.sources[] | "\(.kind) \(.path)"] | join("; ")),
fact("hierarchies"; [.hierarchies[].name]),
fact("in_use"; [.hierarchies[] | select(.in_use) | .name]),
fact("divergent_hierarchies"; [.hierarchies[] | select(.divergent) | .name]),
(.hierarchies[] | .name as $h |
  fact("\($h) controllers"; .controllers), fact("\($h) named"; .named),
  fact("\($h) mountpoint"; .mountpoint), fact("\($h) nr_groups"; .nr_groups),
  fact("\($h) nr_tasks"; .nr_tasks), fact("\($h) unknown_files"; .unknown_files),
  fact("\($h) groups"; [.groups[].path]),
  (.groups[] | .path as $p |
    (("v2_path", "fold", "shape_divergent", "nr_tasks") as $k | fact("\($h) \($p) \($k)"; .[$k])),
    fact("\($h) \($p) tasks"; .tasks | sort),
    fact("\($h) \($p) settings"; [.settings[].file]),
    (.settings[] | .file as $f |
      (("value", "default", "mapping", "fate", "v2_file", "v2_value", "note") as $k |
        fact("\($h) \($p) \($f) \($k)"; .[$k]))))),
fact("nr_settings"; [.hierarchies[].groups[].settings[]] | length),
fact("divergent"; [.divergent_trees[].path]),
(.divergent_trees[] |
  fact("divergent \(.path) present_in"; .present_in),
  fact("divergent \(.path) absent_from"; .absent_from)),
fact("pids"; [.processes[].pid] | sort),
(.processes[] | .pid as $pid |
  (("comm", "exe", "script", "program", "cmdline", "tuple", "multi_hierarchy", "fold",
    "v2_leaf") as $k | fact("\($pid) \($k)"; .[$k]))),
fact("layout"; [nodes | .path]),
fact("leaves"; [nodes | select(.leaf) | .path]),
(nodes | .path as $p |
  (("hierarchies", "approximate_for", "shape_divergent", "leaf", "nr_tasks", "fold") as $k |
    fact("layout \($p) \($k)"; .[$k]))),
(.verdict | to_entries[] | fact("verdict \(.key)"; .value)),
fact("v2_values"; [.hierarchies[].groups[] | .v2_path as $p | .settings[] |
  select(.v2_file != null and .v2_value != null) |
  (.v2_value | split("\n")[]) as $line | "\($p)\t\(.v2_file)\t\($line)"] | join("\n")),
fact("markdown_rows"; [.hierarchies[] | .name as $h | .groups[] | .path as $p | .settings[] |
  "| `\($h)` | `\($p)` | `\(.file)` | \(code(.value)) | \(code(.v2_file)) | \(code(.v2_value)) | \(.fate) |"]
  | join("\n"))
