transform ssde
