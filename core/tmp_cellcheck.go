package core

func checkCellTODO(string) error { return nil }
