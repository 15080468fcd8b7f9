import RoutesJSON
