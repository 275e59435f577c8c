# No false follow-up on the corpus: every capture with device kernels
# and host events (Kineto traces, torch_npu text exports) through the
# whole pipeline, and each with_stack=true or record_shapes=true that
# prof-attrib proposes checked against the raw files, without proftools:
# a capture whose files hold a call stack ('Call stack' args, a Call
# Stack column, python_function events) must not be asked for stacks,
# one that holds shapes ('Input Dims' args, an Input Shapes column) not
# for shapes.  Prints the follow-ups of each capture.
[ -d "$CORPUS/pytorch_kineto" ] || exit 77
a=$CORPUS/ascend_torch_npu
for cap in "$CORPUS"/pytorch_kineto/*/*.json* "$a"/msinsight_alexnet_2rank_20*/text_level* \
    "$a"/msinsight_qwen_llm_pp2dp2_4rank_2025-11 "$a"/msinsight_llm_excerpt_2023-09/test_rank_*; do
	fu=$(prof-ingest -q "$cap" 2>/dev/null | prof-steps | prof-merge | prof-bubbles |
	    prof-attrib | awk -v kind=cause -v want=followup -f "$top_srcdir/tests/cols.awk" |
	    sed 1d | tr ',' '\n' | sed '/^$/d' | sort -u | tr '\n' ' ' | sed 's/ $//')
	raw() { find "$cap" -type f -exec zcat -f {} + 2>/dev/null; }
	bad=
	case " $fu " in *" with_stack=true "*)
		raw | grep -q -E 'Call stack|Call Stack|python_function' &&
		    bad="$bad with_stack";;
	esac
	case " $fu " in *" record_shapes=true "*)
		raw | grep -q -E '"Input Dims"|Input Shapes' && bad="$bad record_shapes";;
	esac
	echo "${cap#"$CORPUS"/}: ${fu:-none}${bad:+ FALSE:$bad}"
done
