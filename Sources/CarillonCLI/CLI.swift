public enum CarillonCLIPlaceholder {}
