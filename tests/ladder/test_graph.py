"""The scoring graph asks the filter, by name, for every extractor whose scores the summary reads,
so that the summary does not depend on the filter's default features."""

import unittest

from vmafhip_ladder import score, vmaflog
from vmafhip_ladder.media import Video


class ScoringGraph(unittest.TestCase):
    def graph(self, metrics="default"):
        return score.filter_graph(1920, 1080, "yuv420p", "1/24", "bicubic", "vmaf_v0.6.1", metrics,
                                  "log.json", "")

    def test_asks_for_the_summary_extractors(self):
        self.assertIn(":feature=psnr|float_ssim:", self.graph())

    def test_ctc_asks_for_its_extractors_too(self):
        self.assertIn(":feature=psnr|float_ssim|float_ms_ssim|psnr_hvs|ciede:", self.graph("ctc"))

    def test_every_required_score_has_its_extractor_asked_for(self):
        for metrics, scores in vmaflog.METRIC_SETS.items():
            features = self.graph(metrics).split(":feature=")[1].split(":")[0].split("|")
            for name in scores:
                self.assertIn(scores[name], features, name)

    def test_model_and_log(self):
        self.assertIn("libvmaf_hip=model=version=vmaf_v0.6.1\\\\:name=vmaf:", self.graph())
        self.assertTrue(self.graph().endswith(":log_fmt=json:log_path=log.json"))


class TitleGraphs(unittest.TestCase):
    """A title's renditions in one ffmpeg: a graph per rendition, each taking the source (the
    last input, decoded once)."""

    def test_one_graph_instance_log_and_output_per_rendition(self):
        logs = [("720p", "a.json"), ("360p", "b.json")]
        graphs = score.title_graphs(1920, 1080, "yuv420p", "1/24", "bicubic", "vmaf_v0.6.1", "ctc", logs,
                                    "backend=cpu")
        self.assertEqual(len(graphs), 2)
        for k, ((name, log), graph) in enumerate(zip(logs, graphs)):
            chains = graph.split(";")
            self.assertEqual(len(chains), 3)
            self.assertEqual(chains[0], f"[{k}:v]settb=1/24,setpts=N,"
                                        f"scale=1920:1080:flags=bicubic,format=yuv420p[dis{k}]")
            self.assertEqual(chains[1], f"[2:v]settb=1/24,setpts=N,format=yuv420p[ref{k}]")
            self.assertTrue(chains[2].startswith(f"[dis{k}][ref{k}]libvmaf_hip@{name}=model="))
            self.assertIn(":feature=psnr|float_ssim|float_ms_ssim|psnr_hvs|ciede:", chains[2])
            self.assertTrue(chains[2].endswith(f":log_path={log}:backend=cpu[o{k}]"))
        cmd = score.title_command("ffmpeg", [Video("720p.mp4"), Video("360p.mp4")], Video("s.mkv"), graphs)
        self.assertEqual([cmd[i + 1] for i, arg in enumerate(cmd) if arg == "-i"],
                         ["720p.mp4", "360p.mp4", "s.mkv"])
        start = cmd.index(graphs[0]) - 1
        self.assertEqual(cmd[start:], ["-lavfi", graphs[0], "-lavfi", graphs[1],
                                       "-map", "[o0]", "-f", "null", "-", "-map", "[o1]", "-f", "null", "-"])


if __name__ == "__main__":
    unittest.main()
