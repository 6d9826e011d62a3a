#!/usr/bin/env bash
# asm_grep.sh TKC TARGET FILE.tk [+REGEX | -REGEX]..
# Emits the assembly of FILE.tk for TARGET and checks it line by line with
# grep -E: every +REGEX must match at least one line, no -REGEX may match any.
# These are golden greps for the micro-kernel instructions, not exact text.
set -u
if [ $# -lt 4 ]; then
    echo "usage: asm_grep.sh TKC TARGET FILE.tk [+REGEX | -REGEX].." >&2
    exit 2
fi
tkc=$1 target=$2 file=$3
shift 3
asm=$(mktemp)
trap 'rm -f "$asm"' EXIT
if ! "$tkc" --target="$target" --emit=asm "$file" -o "$asm"; then
    echo "FAILED: tkc --target=$target --emit=asm $file"
    exit 1
fi
status=0
for check in "$@"; do
    re=${check#?}
    n=$(grep -Ec -- "$re" "$asm")
    case "$check" in
        +*) if [ "$n" -gt 0 ]; then echo "ok: $n lines match /$re/"
            else echo "FAILED: no line matches /$re/ in the $target assembly of $file"; status=1; fi ;;
        -*) if [ "$n" -eq 0 ]; then echo "ok: no line matches /$re/"
            else echo "FAILED: $n lines match /$re/ in the $target assembly of $file, e.g.:"
                 grep -Em3 -- "$re" "$asm"; status=1; fi ;;
        *) echo "asm_grep.sh: a check starts with + or -: $check" >&2; exit 2 ;;
    esac
done
exit $status
