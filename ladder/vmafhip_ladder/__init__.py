"""vmafhip-ladder: score encoding ladders with the libvmaf_hip FFmpeg filter on Dask."""

__version__ = "1.0.0"
