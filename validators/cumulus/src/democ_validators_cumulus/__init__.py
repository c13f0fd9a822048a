"""democ's Cumulus Linux NVUE files against NVIDIA's NVUE models."""
