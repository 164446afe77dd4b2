"""The scoring graph asks the filter, by name, for every extractor whose scores the summary reads,
so that the summary does not depend on the filter's default features."""

import unittest

from vmafhip_ladder import score, vmaflog


class ScoringGraph(unittest.TestCase):
    def graph(self):
        return score.filter_graph(1920, 1080, "yuv420p", "1/24", "bicubic", "vmaf_v0.6.1", "log.json", "")

    def test_asks_for_the_summary_extractors(self):
        self.assertIn(":feature=psnr|float_ssim:", self.graph())

    def test_every_required_score_has_its_extractor_asked_for(self):
        features = self.graph().split(":feature=")[1].split(":")[0].split("|")
        for name in vmaflog.REQUIRED:
            if name != "vmaf":
                self.assertIn(vmaflog.SCORE_EXTRACTORS[name], features, name)

    def test_model_and_log(self):
        self.assertIn("libvmaf_hip=model=version=vmaf_v0.6.1\\\\:name=vmaf:", self.graph())
        self.assertTrue(self.graph().endswith(":log_fmt=json:log_path=log.json"))


if __name__ == "__main__":
    unittest.main()
