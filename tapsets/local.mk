## tapsets/local.mk -- the tapset library, installed under
## $(pkgdatadir)/tapsets. Every file is listed: automake has no wildcards.

nobase_dist_pkgdata_DATA += \
	tapsets/macros.stpm
