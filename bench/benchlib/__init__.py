"""benchlib - bench/run's parts, a module a group of cases"""
