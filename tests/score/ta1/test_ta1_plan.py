"""--plan: the metrics as plan §4 defines them, where NIST's code differs."""

from __future__ import annotations

from ta1_example import EXAMPLE, run_example

from aifcheck.render.ta1.scores import reported


def test_plan_frame_metric_counts_unaligned_gold_frames(tmp_path, ta1_data, from_sparql):
    # plan §4.7 step 3: the mean is over unaligned clusters too; NIST gives unaligned gold none
    _, nist = from_sparql
    plan = run_example(EXAMPLE / "SPARQL-output", tmp_path / "out", plan=True)
    unaligned_gold = [
        r for r in plan.metrics["FrameMetric"].rows if r.system_cluster == "None" and r.gold_cluster != "None"
    ]
    assert unaligned_gold and all(r.get("average_edge_score") == 0 for r in unaligned_gold)
    assert not [r for r in nist.metrics["FrameMetric"].rows if r.system_cluster == "None" and r.gold_cluster != "None"]
    assert plan.plan and reported(plan.results.total) != reported(nist.results.total)
