# libvmaf_hip on the CPU backend: no hardware needed, so part of a normal run.
FATE_FILTER_REFCMP_METADATA-$(CONFIG_LIBVMAF_HIP_FILTER) += fate-filter-refcmp-libvmaf-hip-yuv420p
fate-filter-refcmp-libvmaf-hip-yuv420p: CMD = refcmp_metadata libvmaf_hip=backend=cpu yuv420p 0.00001

# The same on the GPU, against the same reference: with the hardware tests.
FATE_LIBVMAF_HIP_GPU-$(call ALLYES, LIBVMAF_HIP_FILTER TESTSRC2_FILTER SPLIT_FILTER AVGBLUR_FILTER \
                                    METADATA_FILTER WRAPPED_AVFRAME_ENCODER NULL_MUXER \
                                    PIPE_PROTOCOL FFMPEG) += fate-filter-refcmp-libvmaf-hip-gpu-yuv420p
fate-filter-refcmp-libvmaf-hip-gpu-yuv420p: REF = $(SRC_PATH)/tests/ref/fate/filter-refcmp-libvmaf-hip-yuv420p
fate-filter-refcmp-libvmaf-hip-gpu-yuv420p: CMD = refcmp_metadata libvmaf_hip=backend=hip yuv420p 0.00001
$(FATE_LIBVMAF_HIP_GPU-yes): ffmpeg$(PROGSSUF)$(EXESUF)
FATE_HW-yes += $(FATE_LIBVMAF_HIP_GPU-yes)

