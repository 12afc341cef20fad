print-objs:
	@echo $(LINK_PYTHON_OBJS)
print-libs:
	@echo $(LIBS) $(MODLIBS) $(SYSLIBS)
