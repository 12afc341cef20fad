"""Scripts as models write them when a task grows: arrays, `PIPESTATUS`, process substitution,
`trap`, `sh -c`, arithmetic, C-style `for` (docs/shell.md). Each runs in real bash and in the
shell on the same fixture (cases.FIXTURE); stdout and exit status must match exactly."""

ARRAYS = [
    'a=(1 "2 x"); declare -A m=([k]=v); set | grep -E "^(a|m)="',
    # indexed arrays
    'files=(data.csv notes.txt words.txt)\necho "${#files[@]} files"\nfor f in "${files[@]}"; do\n  echo "$f: $(wc -l < "$f")"\ndone',
    'a=(one "two words" three)\nprintf "[%s]\\n" "${a[@]}"\nprintf "[%s]\\n" ${a[@]}\nprintf "[%s]\\n" "${a[*]}"',
    "a=(x y z)\necho ${a[0]} ${a[2]} ${a[-1]} ${a[1]}\necho $a\necho ${#a[1]}",
    'a=(1 2 3)\na+=(4 5)\na[7]=eight\necho "${a[@]}"\necho "${!a[@]}"\necho ${#a[@]}',
    "a=(a b c d e f)\necho ${a[@]:2}\necho ${a[@]:1:3}\necho ${a[@]: -2}\necho ${a[*]:0:2}",
    "a=(10 20 30 40)\nunset 'a[1]'\necho ${a[@]}\necho ${!a[@]}\necho ${#a[@]}\nunset a\necho ${#a[@]}",
    'names=(alice bob carol)\necho "${names[@]^^}"\necho "${names[@]/o/0}"\necho "${names[@]#?}"\necho "${names[@]%l}"',
    "i=1\nnums=(5 6 7)\necho ${nums[i]} ${nums[$i+1]} ${nums[i-1]}\nnums[i]=60\necho ${nums[*]}",
    'declare -a list\nlist+=("first")\nlist+=("second item")\nfor item in "${list[@]}"; do echo "- $item"; done\necho "${#list[@]}"',
    "mapfile -t lines < words.txt\necho ${#lines[@]}\necho ${lines[0]} ${lines[-1]}\nprintf '%s\\n' \"${lines[@]}\" | sort -u",
    'readarray -t nums < numbers.txt\ntotal=0\nfor n in "${nums[@]}"; do (( total += n )); done\necho "sum=$total count=${#nums[@]}"',
    'IFS=, read -ra header < data.csv\necho "${#header[@]} columns: ${header[1]}"\nfor i in "${!header[@]}"; do echo "$i=${header[$i]}"; done',
    "read -a parts <<< 'alpha beta   gamma'\necho ${#parts[@]} ${parts[2]}",
    'sorted=($(sort -n numbers.txt))\necho "min=${sorted[0]} max=${sorted[-1]}"\nuniq=($(sort -u words.txt))\necho "${uniq[@]}"',
    'args=(-n 2)\nhead "${args[@]}" notes.txt',
    'a=()\necho "empty: ${#a[@]}"\nfor x in "${a[@]}"; do echo never; done\necho "[${a[*]}]"',
    "s=hello\ns[1]=world\necho ${s[@]}\necho ${#s[@]}",
    'arr=(b a c)\nIFS=$\'\\n\' sorted=($(printf "%s\\n" "${arr[@]}" | sort))\necho "${sorted[@]}"',
    'f() {\n  local -a items=("$@")\n  echo "${#items[@]} items, last ${items[-1]}"\n}\nf one two three',
    'a=(1 2 3)\nb=("${a[@]}")\nb[0]=9\necho ${a[0]} ${b[0]}',
    "x=(a b c)\necho ${x[@]:-default}\ny=()\necho ${y[@]:-default}",
    "declare -a arr=(3 1 2)\ndeclare -p arr",
    # associative arrays
    'declare -A ages=([alice]=30 [bob]=25)\nages[carol]=35\necho "${ages[alice]} ${ages[carol]}"\necho "${#ages[@]}"\nfor k in "${!ages[@]}"; do echo "$k=${ages[$k]}"; done | sort',
    'declare -A count\nwhile read -r w; do\n  (( count[$w]++ ))\ndone < words.txt\nfor w in "${!count[@]}"; do\n  echo "$w ${count[$w]}"\ndone | sort',
    "declare -A m\nm[a]=1\nm[b]=2\nm[c]=3\necho ${!m[@]}\necho ${m[@]}",
    'declare -A city\nwhile IFS=, read -r name age place; do\n  [ "$name" = name ] && continue\n  city[$place]+="$name "\ndone < data.csv\nfor p in $(printf "%s\\n" "${!city[@]}" | sort); do echo "$p: ${city[$p]}"; done',
    "declare -A h=([x]=1)\nunset 'h[x]'\necho \"${#h[@]}\"\nh[y]=2\n[[ -v h[y] ]] && echo has-y\necho ${h[y]:-none} ${h[z]:-none}",
    "declare -A cfg=([host]=localhost [port]=8080)\ndeclare -p cfg",
    'declare -A seen\nfor w in $(cat words.txt); do\n  if [[ -z "${seen[$w]}" ]]; then\n    seen[$w]=1\n    echo "$w"\n  fi\ndone',
]

ARITHMETIC = [
    "for ((i = 1; i <= 3; i++)); do echo $i; done",
    "for ((i = 10; i >= 0; i -= 4)); do printf '%d ' $i; done; echo",
    "i=0\nwhile (( i < 5 )); do (( i++ )); done\necho $i\n(( i >= 5 )) && echo big\n(( i <= 2 )) || echo not-small",
    "echo $(( 2 ** 10 )) $(( 7 % 3 )) $(( -7 / 2 )) $(( 1 << 4 )) $(( 0xff )) $(( 8#17 ))",
    "x=1\n(( x <<= 3 ))\necho $x\n(( x >>= 1, x |= 1 ))\necho $x\n(( y = x > 3 ? 100 : 200 ))\necho $y",
    "a=5\necho $(( a++ )) $a $(( ++a )) $(( a-- )) $(( --a ))",
    "n=7\nif (( n % 2 == 1 && n > 5 )); then echo odd-big; fi\n(( n == 7 )); echo $?\n(( n == 8 )); echo $?",
    "(( 0 )); echo $?\n(( 3 - 3 )); echo $?\n(( 2 > 1 )); echo $?",
    'for ((i=0, j=10; i<j; i+=3, j-=3)); do echo "$i $j"; done',
    "sum=0\nfor ((i=1; i<=100; i++)); do (( sum += i )); done\necho $sum",
    "fib() {\n  local a=0 b=1 i\n  for ((i = 0; i < $1; i++)); do\n    (( t = a + b, a = b, b = t ))\n  done\n  echo $a\n}\nfib 10; fib 20",
    'total=0\ncount=0\nwhile read -r n; do\n  total=$(( total + n ))\n  count=$(( count + 1 ))\ndone < numbers.txt\necho "avg=$(( total / count )) rem=$(( total % count ))"',
    "let 'x = 2 ** 5' 'y = x / 3'\necho $x $y\nlet z=0; echo $?",
    "for ((;;)); do (( k++ )); (( k >= 3 )) && break; done; echo $k",
]

PIPES = [
    "false | true | false; echo ${PIPESTATUS[@]}",
    'grep nomatch notes.txt | sort | wc -l\necho "${PIPESTATUS[0]} ${PIPESTATUS[1]} ${PIPESTATUS[2]}"',
    "true; echo ${PIPESTATUS[@]} ${#PIPESTATUS[@]}",
    'cat words.txt | sort | uniq -c > /dev/null\nstatus=("${PIPESTATUS[@]}")\necho "${status[*]}"',
    'set -o pipefail\nif grep -q zzz notes.txt | cat; then echo found; else echo "missing ${PIPESTATUS[0]}"; fi',
    "x=$(false)\necho $?\ny=$(echo ok)\necho $? $y",
    'if ! out=$(grep -c TODO notes.txt); then echo none; else echo "todos=$out"; fi',
    "x=0; { x=1; } | cat; echo $x",
    'n=0; echo 5 | { read -r n; echo "in=$n"; }; echo "out=$n"',
    "x=0; echo a | { x=2; cat; } | { x=3; wc -l; }; echo $x",
    "x=0; if true; then x=1; fi | cat; for i in 1 2; do x=$i; done | cat; echo $x",
]

PROCESS_SUBSTITUTION = [
    "diff <(sort words.txt) <(sort -u words.txt)",
    "diff <(echo a) <(echo b) 2>/dev/null; echo $?",
    'while read -r line; do\n  echo "got: $line"\ndone < <(grep ERROR logs/app.log)',
    "count=0\nwhile read -r _; do (( count++ )); done < <(ls *.txt)\necho $count",
    "cat <(echo one) <(echo two)",
    "paste <(cut -d, -f1 data.csv) <(cut -d, -f3 data.csv)",
    "wc -l < <(cat notes.txt)",
    "grep -f <(printf 'apple\\ncherry\\n') words.txt | sort -u",
    "echo hello | tee >(cat > /dev/null) | tr a-z A-Z",
    "seq 3 | tee >(wc -l > /dev/null) > /dev/null; echo done",
    "mapfile -t errors < <(grep -o 'ERROR.*' logs/app.log)\necho ${#errors[@]}: ${errors[1]}",
]

TRAPS = [
    "cleanup() { echo cleaning up; rm -f tmp.txt; }\ntrap cleanup EXIT\necho work > tmp.txt\necho done\nls tmp.txt",
    "trap 'echo \"exit status $?\"' EXIT\necho start\nexit 3",
    "trap 'echo bye' EXIT\nfalse\necho after",
    "set -e\ntrap 'echo \"failed at step $step\"' EXIT\nstep=1\ntrue\nstep=2\nfalse\nstep=3",
    "trap 'echo error on a command' ERR\necho one\nfalse\necho two\nls nosuch 2>/dev/null\necho three",
    "trap 'echo first' EXIT\ntrap 'echo second' EXIT\ntrap - EXIT\necho none",
    "( trap 'echo sub-exit' EXIT; echo in-sub )\necho outside",
    "trap 'echo x' FOO; echo $?",
    'tmp=$(mktemp)\ntrap \'rm -f "$tmp"; echo removed\' EXIT\necho data > "$tmp"\nwc -l < "$tmp"',
]

SUBSHELLS = [
    "sh -c 'echo hello from sh'",
    "bash -c 'echo $0 $1 $2' name first second",
    "sh -c 'exit 4'; echo $?",
    "export GREETING=hi\nlocalonly=1\nbash -c 'echo \"$GREETING [$localonly]\"'",
    "f() { echo func; }\nbash -c 'f' 2>/dev/null; echo $?",
    'find . -name \'*.py\' -exec sh -c \'echo "$(basename "$1"): $(wc -l < "$1")"\' _ {} \\; | sort',
    "find . -maxdepth 1 -name '*.txt' -exec bash -c 'for f; do echo \"${f#./}\"; done' _ {} + | sort",
    "echo 'echo from stdin; echo $((1+2))' | bash",
    "printf 'echo script $1\\nexit 2\\n' > s.sh\nbash s.sh arg; echo $?\nsh s.sh other",
    "bash -c 'cd src && pwd | grep -c src$'; pwd | grep -c src$",
    "bash -e -c 'false; echo not-reached'; echo $?",
    "sh -c 'for x in a b; do echo $x; done'",
    "ls *.csv | xargs -I{} sh -c 'echo \"file: {}\"'",
]

SCRIPTS_WHOLE = [
    # scripts of 10-40 lines, as a model writes when a task grows
    """#!/bin/bash
set -euo pipefail

declare -A totals
declare -A counts

while IFS=, read -r name age city; do
  [[ "$name" == "name" ]] && continue
  totals[$city]=$(( ${totals[$city]:-0} + age ))
  counts[$city]=$(( ${counts[$city]:-0} + 1 ))
done < data.csv

for city in $(printf '%s\\n' "${!totals[@]}" | sort); do
  avg=$(( totals[$city] / counts[$city] ))
  printf '%-8s %3d %d\\n' "$city" "$avg" "${counts[$city]}"
done
""",
    """#!/usr/bin/env bash
# Summarise the log by level, then list the errors with their dates.
log=logs/app.log
levels=(INFO WARN ERROR)
for level in "${levels[@]}"; do
  n=$(grep -c " $level " "$log" || true)
  echo "$level: $n"
done

errors=()
while read -r date level msg; do
  [[ $level == ERROR ]] && errors+=("$date $msg")
done < "$log"

echo "${#errors[@]} errors"
for ((i = 0; i < ${#errors[@]}; i++)); do
  echo "  $((i + 1)). ${errors[$i]}"
done
""",
    """#!/bin/bash
tmpdir=$(mktemp -d)
trap 'rm -rf "$tmpdir"; echo "cleaned"' EXIT

sort words.txt > "$tmpdir/a"
sort -u words.txt > "$tmpdir/b"
if diff -q "$tmpdir/a" "$tmpdir/b" > /dev/null; then
  echo "no duplicates"
else
  echo "duplicates: $(( $(wc -l < "$tmpdir/a") - $(wc -l < "$tmpdir/b") ))"
fi
""",
    """#!/bin/bash
process() {
  local file=$1
  local -a words
  mapfile -t words < "$file"
  local longest=""
  for w in "${words[@]}"; do
    (( ${#w} > ${#longest} )) && longest=$w
  done
  echo "$file: ${#words[@]} lines, longest '$longest'"
}

for f in words.txt numbers.txt; do
  process "$f"
done
""",
    """#!/bin/bash
set -o pipefail
results=()
for f in *.txt; do
  if lines=$(wc -l < "$f"); then
    results+=("$f:$lines")
  fi
done
printf '%s\\n' "${results[@]}" | sort -t: -k2 -n
echo "statuses: ${PIPESTATUS[*]}"
""",
    """#!/bin/bash
# Compare two column lists with process substitution.
cut -d, -f1 data.csv | tail -n +2 | sort > names.txt
printf 'alice\\nbob\\neve\\n' | sort > wanted.txt
echo "missing:"
diff <(sort names.txt) <(sort wanted.txt) | grep '^>' | sed 's/^> /  /'
echo "present:"
while read -r n; do
  grep -qx "$n" names.txt && echo "  $n"
done < wanted.txt
""",
    """#!/bin/bash
declare -A ext_count
while IFS= read -r -d '' path; do
  name=${path##*/}
  if [[ $name == *.* ]]; then
    ext=${name##*.}
  else
    ext=none
  fi
  (( ext_count[$ext]++ ))
done < <(find . -type f -print0)
for ext in $(echo "${!ext_count[@]}" | tr ' ' '\\n' | sort); do
  echo "$ext ${ext_count[$ext]}"
done
""",
    """#!/bin/bash
queue=(3 1 4 1 5 9 2 6)
max=${queue[0]}
min=${queue[0]}
for n in "${queue[@]:1}"; do
  (( n > max )) && max=$n
  (( n < min )) && min=$n
done
echo "max=$max min=$min"
evens=()
for n in "${queue[@]}"; do
  (( n % 2 == 0 )) && evens+=("$n")
done
echo "evens: ${evens[*]} (${#evens[@]})"
""",
    """#!/bin/bash
set -u
config=(
  "name=demo"     # the project
  "version=2"
  "debug=false"
)
declare -A settings
for line in "${config[@]}"; do
  settings[${line%%=*}]=${line#*=}
done
echo "${settings[name]} v${settings[version]} debug=${settings[debug]}"
echo "${missing:-unset-ok}"
""",
]

PATTERN_FILES = [
    # grep -f, as scripts use it to filter by a list
    "printf 'apple\\ncherry\\n' > want.txt; grep -f want.txt words.txt | sort | uniq -c",
    ": > none.txt; grep -f none.txt words.txt; echo $?",
    "grep -f nosuch.txt words.txt; echo $?",
    "echo ERROR | grep -c -f - logs/app.log",
    "grep -v -x -f <(sort -u words.txt | head -2) words.txt",
]

UNSUPPORTED = [
    # select reads its answers from stdin (its menu goes to stderr)
    "echo before\nselect x in a b; do echo $x; done < /dev/null\necho after",
    "printf '2\\n\\n1\\n' | { select f in apple pear; do echo \"got $f ($REPLY)\"; done; }",
    'select x in a b; do echo $x; break; done <<< 7; echo "[$x]"',
    # what cannot run is said for its line, and the rest runs
    "echo before\ncoproc cat\necho after",
    "echo one\nif then\necho never",
]

SCRIPTS: list[str] = [
    *ARRAYS,
    *ARITHMETIC,
    *PIPES,
    *PROCESS_SUBSTITUTION,
    *TRAPS,
    *SUBSHELLS,
    *SCRIPTS_WHOLE,
    *PATTERN_FILES,
    *UNSUPPORTED,
]
